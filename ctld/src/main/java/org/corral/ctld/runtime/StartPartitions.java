package org.corral.ctld.runtime;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.PartitionInfo;

/**
 * The partitions a starting controller serves. Slurm's slurmctld takes slurm.conf's unless started
 * with {@code -R}, which restores the saved ones (scontrol create/update/delete partition kept).
 * Either way the table is journaled when it differs from the saved one, so a later {@code -R}
 * restores what this controller served.
 */
final class StartPartitions {
  private StartPartitions() {}

  /** @param s the state with slurm.conf's nodes and partitions loaded */
  static Decision<Void> decide(List<PartitionInfo> saved, boolean recover, ClusterState s, long now) {
    if (recover && !saved.isEmpty()) {
      return Decision.of(null, new Command.SetPartitions(onKnownNodes(saved, s), now));
    }
    return s.partitions().equals(saved) ? Decision.none(null)
        : Decision.of(null, new Command.SetPartitions(s.partitions(), now));
  }

  /** The saved partitions with nodes slurm.conf no longer defines left out, their totals recounted. */
  private static List<PartitionInfo> onKnownNodes(List<PartitionInfo> saved, ClusterState s) {
    Set<String> known = Set.copyOf(s.nodeOrder());
    return saved.stream().map(p -> {
      List<String> nodes = p.getNodeNamesList().stream().filter(known::contains).toList();
      return PartitionRequests.withTotals(p.toBuilder().clearNodeNames().addAllNodeNames(nodes)
          .setNodes(org.corral.common.Hostlist.compress(nodes)), s);
    }).collect(Collectors.toList());
  }
}

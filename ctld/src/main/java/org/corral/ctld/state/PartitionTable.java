package org.corral.ctld.state;

import java.util.List;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.pcollections.PMap;

/** The partition table replaced as a whole, each node's list of partitions following it (in table order). */
final class PartitionTable {
  private PartitionTable() {}

  static ClusterState set(ClusterState s, List<PartitionInfo> partitions, long time) {
    PMap<String, NodeInfo> nodes = s.nodes();
    for (NodeInfo n : s.nodes().values()) {
      List<String> in = partitions.stream().filter(p -> p.getNodeNamesList().contains(n.getName()))
          .map(PartitionInfo::getName).toList();
      if (!in.equals(n.getPartitionsList())) {
        nodes = nodes.plus(n.getName(), n.toBuilder().clearPartitions().addAllPartitions(in).build());
      }
    }
    return new ClusterState(s.jobs(), nodes, s.nodeOrder(), List.copyOf(partitions), s.nextJobId(),
        Math.max(s.lastUpdate(), time), s.outbox(), s.reservations());
  }
}

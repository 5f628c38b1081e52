package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.BillingWeights;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionUpdateRequest;

/**
 * {@code scontrol create|update|delete PartitionName=}: super users only (root, SlurmUser,
 * AdminLevel Administrator), everyone else gets Slurm's "Invalid user id". The table changes as
 * a whole ({@link Command.SetPartitions}), so it survives in the journal for {@code slurmctld -R}.
 * A partition created here starts as Slurm's do: UP, UNLIMITED time, MinNodes=1, no nodes.
 */
final class PartitionRequests {
  private final Authorizer auth;
  private final Clock clock;

  PartitionRequests(Authorizer auth, Clock clock) {
    this.auth = auth;
    this.clock = clock;
  }

  Decision<Void> createOrUpdate(Peer peer, PartitionUpdateRequest req, ClusterState s) {
    superUser(peer);
    Map<String, String> f = req.getFieldsMap();
    String name = f.getOrDefault("partitionname", "");
    List<PartitionInfo> table = new ArrayList<>(s.partitions());
    int at = indexOf(table, name);
    if (name.isEmpty() || (req.getCreate() ? at >= 0 : at < 0)) {
      throw new SlurmException(SlurmError.INVALID_PARTITION_NAME);
    }
    PartitionInfo.Builder b = req.getCreate() ? created(name) : table.get(at).toBuilder();
    apply(f, b, s);
    PartitionInfo p = withTotals(b, s);
    if (at < 0) {
      table.add(p);
    } else {
      table.set(at, p);
    }
    if (p.getIsDefault()) { // one default: the newest to claim it
      table.replaceAll(o -> o.getName().equals(name) || !o.getIsDefault() ? o : o.toBuilder().setIsDefault(false).build());
    }
    return Decision.of(null, new Command.SetPartitions(table, clock.instant().getEpochSecond()));
  }

  /** {@code delete PartitionName=X}: refused while any job not finished names it. */
  Decision<Void> delete(Peer peer, String name, ClusterState s) {
    superUser(peer);
    List<PartitionInfo> table = new ArrayList<>(s.partitions());
    int at = indexOf(table, name);
    if (at < 0) {
      throw new SlurmException(SlurmError.INVALID_PARTITION_NAME);
    }
    boolean used = s.jobs().values().stream().map(r -> r.getInfo())
        .anyMatch(j -> !JobStates.isFinished(j) && List.of(j.getPartition().split(",")).contains(name));
    if (used) {
      throw new SlurmException(SlurmError.PARTITION_IN_USE);
    }
    table.remove(at);
    return Decision.of(null, new Command.SetPartitions(table, clock.instant().getEpochSecond()));
  }

  private void superUser(Peer peer) {
    if (!auth.isSuperUser(peer)) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
  }

  private static int indexOf(List<PartitionInfo> table, String name) {
    for (int i = 0; i < table.size(); i++) {
      if (table.get(i).getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static PartitionInfo.Builder created(String name) {
    return PartitionInfo.newBuilder().setName(name).setState("UP").setMaxTimeMin((int) SlurmDuration.INFINITE)
        .setDefaultTimeMin((int) SlurmDuration.INFINITE).setMinNodes(1).setMaxNodes((int) SlurmDuration.INFINITE)
        .setAllowGroups("ALL").setAllowAccounts("ALL").setAllowQos("ALL").setPriorityTier(1)
        .setPriorityJobFactor(1).setOversubscribe("NO").setPreemptMode("OFF")
        .setMaxCpusPerNode((int) SlurmDuration.INFINITE);
  }

  /** The normalized fields (see PartitionSettings) onto the partition; a malformed one is refused. */
  private static void apply(Map<String, String> f, PartitionInfo.Builder b, ClusterState s) {
    for (Map.Entry<String, String> e : f.entrySet()) {
      String v = e.getValue();
      switch (e.getKey()) {
        case "partitionname" -> { }
        case "nodes" -> {
          List<String> names = nodes(v, s);
          b.clearNodeNames().addAllNodeNames(names).setNodes(Hostlist.compress(names));
        }
        case "maxtime" -> b.setMaxTimeMin((int) number(v));
        case "defaulttime" -> b.setDefaultTimeMin((int) number(v));
        case "maxnodes" -> b.setMaxNodes((int) number(v));
        case "minnodes" -> b.setMinNodes((int) number(v));
        case "maxcpuspernode" -> b.setMaxCpusPerNode((int) number(v));
        case "gracetime" -> b.setGraceTime((int) number(v));
        case "priorityjobfactor" -> b.setPriorityJobFactor((int) number(v));
        case "prioritytier" -> b.setPriorityTier((int) number(v));
        case "priority" -> b.setPriorityJobFactor((int) number(v)).setPriorityTier((int) number(v));
        case "defmempercpu" -> b.setDefMemPerCpuMb(number(v)).setDefMemPerNodeMb(0);
        case "defmempernode" -> b.setDefMemPerNodeMb(number(v)).setDefMemPerCpuMb(0);
        case "maxmempercpu" -> b.setMaxMemPerCpuMb(number(v)).setMaxMemPerNodeMb(0);
        case "maxmempernode" -> b.setMaxMemPerNodeMb(number(v)).setMaxMemPerCpuMb(0);
        case "default" -> b.setIsDefault(flag(v));
        case "hidden" -> b.setHidden(flag(v));
        case "rootonly" -> b.setRootOnly(flag(v));
        case "exclusiveuser" -> b.setExclusiveUser(flag(v));
        case "lln" -> b.setLln(flag(v));
        case "reqresv" -> b.setReqResv(flag(v));
        case "state" -> b.setState(word(v, Set.of("UP", "DOWN", "DRAIN", "INACTIVE")));
        case "oversubscribe" -> b.setOversubscribe(checked(v, "(NO|EXCLUSIVE|YES|FORCE)(:[0-9]{1,5})?"));
        case "preemptmode" -> b.setPreemptMode(checked(v, "[A-Z,]+"));
        case "allowgroups" -> b.setAllowGroups(v);
        case "allowaccounts" -> b.setAllowAccounts(v);
        case "allowqos" -> b.setAllowQos(v);
        case "denyaccounts" -> b.setDenyAccounts(v);
        case "tresbillingweights" -> {
          try {
            BillingWeights.parse(v);
          } catch (IllegalArgumentException ex) {
            throw new SlurmException(SlurmError.INVALID_TRES_BILLING_WEIGHTS);
          }
          b.setTresBillingWeights(v);
        }
        default -> throw new SlurmException(SlurmError.INVALID_MESSAGE, "unknown partition field " + e.getKey());
      }
    }
  }

  /** Nodes=: ALL or a hostlist of known nodes, in the cluster's node order. */
  private static List<String> nodes(String expr, ClusterState s) {
    Set<String> wanted = new LinkedHashSet<>();
    try {
      for (String n : Hostlist.expand(expr)) {
        if (n.equalsIgnoreCase("ALL")) {
          wanted.addAll(s.nodeOrder());
        } else if (s.node(n).isPresent()) {
          wanted.add(n);
        } else {
          throw new SlurmException(SlurmError.INVALID_NODE_NAME);
        }
      }
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_NODE_NAME);
    }
    return s.nodeOrder().stream().filter(wanted::contains).toList();
  }

  /**
   * The partition with the totals its nodes give it (CPUs, nodes, billing), as
   * {@link ConfiguredCluster} computes them from slurm.conf.
   */
  static PartitionInfo withTotals(PartitionInfo.Builder b, ClusterState s) {
    int cpus = 0;
    long mem = 0;
    for (String n : b.getNodeNamesList()) {
      NodeInfo node = s.node(n).orElse(null);
      if (node != null) {
        cpus += node.getCpus();
        mem += node.getRealMemoryMb();
      }
    }
    boolean maxTres = s.partitions().stream().anyMatch(PartitionInfo::getBillingMaxTres);
    BillingWeights w = BillingWeights.parse(b.getTresBillingWeights());
    return b.setTotalCpus(cpus).setTotalNodes(b.getNodeNamesCount()).setBillingMaxTres(maxTres)
        .setTotalBilling(BillingWeights.stored(w.billing(
            Map.of("cpu", (long) cpus, "mem", mem, "node", (long) b.getNodeNamesCount()), maxTres)))
        .build();
  }

  private static long number(String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "not a number: " + v);
    }
  }

  private static boolean flag(String v) {
    return word(v.toUpperCase(java.util.Locale.ROOT), Set.of("YES", "NO")).equals("YES");
  }

  private static String word(String v, Set<String> allowed) {
    if (!allowed.contains(v)) {
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "unexpected value " + v);
    }
    return v;
  }

  private static String checked(String v, String pattern) {
    if (!v.matches(pattern)) {
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "unexpected value " + v);
    }
    return v;
  }
}

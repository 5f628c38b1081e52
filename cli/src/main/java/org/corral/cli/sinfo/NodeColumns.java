package org.corral.cli.sinfo;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.corral.cli.format.Column;
import org.corral.protocol.NodeStates;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;
import org.corral.protocol.NodeFeatures;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/** Every field sinfo can print: {@code %} letter, {@code -O} name, header and value. */
final class NodeColumns {
  private NodeColumns() {}

  /** Letters whose value sums or lists the group's nodes rather than telling groups apart. */
  static final Set<Character> AGGREGATES = Set.of('D', 'N', 'n', 'o', 'C', 'A', 'F', 'e', 'O');
  /** Letters summarised as "min+" unless --exact. */
  static final Set<Character> SIZES = Set.of('c', 'm', 'd');

  static final List<Column<NodeGroup>> ALL = List.of(
      part('P', "Partition", "PARTITION", p -> p.getName() + (p.getIsDefault() ? "*" : "")),
      part('R', "PartitionName", "PARTITION", PartitionInfo::getName),
      part('a', "Available", "AVAIL", p -> avail(p.getState())),
      part('l', "TimeLimit", "TIMELIMIT", p -> limit(p.getMaxTimeMin(), "infinite")),
      part('L', "DefaultTime", "DEFAULTTIME", p -> limit(p.getDefaultTimeMin(), "n/a")),
      part('s', "Size", "JOB_SIZE", p -> Math.max(1, p.getMinNodes()) + "-"
          + limit32(p.getMaxNodes(), "infinite", Integer::toUnsignedString)),
      part('r', "Root", "ROOT", p -> p.getRootOnly() ? "yes" : "no"),
      part('h', "OverSubscribe", "OVERSUBSCRIBE", p -> or(p.getOversubscribe(), "NO")),
      part('g', "Groups", "GROUPS", p -> or(p.getAllowGroups(), "ALL").equals("ALL") ? "all"
          : p.getAllowGroups()),
      part('S', "AllocNodes", "ALLOCNODES", p -> "all"),
      part('p', "PriorityTier", "PRIO_TIER", p -> Integer.toUnsignedString(p.getPriorityTier())),
      part('B', "MaxCPUsPerNode", "MAX_CPUS_PER_NODE",
          p -> limit32(p.getMaxCpusPerNode(), "UNLIMITED", Integer::toUnsignedString)),
      new Column<>('V', "Cluster", "CLUSTER", g -> "N/A"),
      new Column<>('D', "Nodes", "NODES", g -> Integer.toString(g.nodes().size())),
      new Column<>('T', "StateLong", "STATE", g -> g.empty() ? "n/a" : NodeStates.full(g.first())),
      new Column<>('t', "StateCompact", "STATE",
          g -> g.empty() ? "n/a" : NodeStates.compact(g.first())),
      new Column<>('N', "NodeList", "NODELIST", g -> hostlist(g, NodeInfo::getName)),
      new Column<>('n', "NodeHost", "HOSTNAMES", g -> hostlist(g, NodeInfo::getHostname)),
      new Column<>('o', "NodeAddr", "NODE_ADDR", g -> hostlist(g, NodeInfo::getAddr)),
      new Column<>('c', "CPUs", "CPUS", g -> g.size(NodeInfo::getCpus)),
      new Column<>('C', "CPUsState", "CPUS(A/I/O/T)", NodeColumns::cpuStates),
      new Column<>('A', "NodeAI", "NODES(A/I)", g -> {
        long[] aio = nodeStates(g);
        return aio[0] + "/" + aio[1];
      }),
      new Column<>('F', "NodeAIOT", "NODES(A/I/O/T)", g -> {
        long[] aio = nodeStates(g);
        return aio[0] + "/" + aio[1] + "/" + aio[2] + "/" + (aio[0] + aio[1] + aio[2]);
      }),
      new Column<>('m', "Memory", "MEMORY", g -> g.size(NodeInfo::getRealMemoryMb)),
      new Column<>('d', "Disk", "TMP_DISK", g -> g.size(NodeInfo::getTmpDiskMb)),
      new Column<>('e', "FreeMem", "FREE_MEM", g -> g.range(NodeInfo::getFreeMemMb, Long::toString)),
      new Column<>('O', "CPUsLoad", "CPU_LOAD",
          g -> g.range(NodeInfo::getCpuLoad, l -> String.format("%.2f", l / 100.0))),
      new Column<>('z', "SocketCoreThread", "S:C:T", g -> g.size(NodeInfo::getSockets) + ":"
          + g.size(NodeInfo::getCoresPerSocket) + ":" + g.size(NodeInfo::getThreadsPerCore)),
      new Column<>('X', "Sockets", "SOCKETS", g -> g.size(NodeInfo::getSockets)),
      new Column<>('Y', "Cores", "CORES", g -> g.size(NodeInfo::getCoresPerSocket)),
      new Column<>('Z', "Threads", "THREADS", g -> g.size(NodeInfo::getThreadsPerCore)),
      node('f', "Features", "AVAIL_FEATURES", n -> features(n.getFeaturesList())),
      node('b', "Features_act", "ACTIVE_FEATURES", n -> features(NodeFeatures.active(n))),
      node('G', "Gres", "GRES", org.corral.cli.format.GresText::node),
      node('\u0001', "GresUsed", "GRES_USED", n -> or(org.corral.cli.format.GresText.used(n), "(null)")), // -O only
      node('w', "Weight", "WEIGHT", n -> Integer.toUnsignedString(n.getWeight())),
      node('E', "Reason", "REASON", n -> or(n.getReason(), "none")),
      new Column<>('H', "Timestamp", "TIMESTAMP", g -> g.empty() ? "Unknown"
          : SlurmTimes.iso(g.first().getReasonTime(), g.zone(), "Unknown")),
      new Column<>('u', "User", "USER", NodeColumns::reasonUser),
      new Column<>('U', "UserLong", "USER", g -> {
        String user = reasonUser(g);
        return user.equals("Unknown") ? user
            : user + "(" + Integer.toUnsignedString(g.first().getReasonUid()) + ")";
      }),
      node('\u0002', "AllocMem", "ALLOCMEM", n -> Long.toUnsignedString(n.getAllocMemMb()))); // -O only

  private static Column<NodeGroup> part(char letter, String name, String header,
      Function<PartitionInfo, String> f) {
    return new Column<>(letter, name, header,
        g -> g.partition() == null ? "N/A" : f.apply(g.partition()));
  }

  private static Column<NodeGroup> node(char letter, String name, String header,
      Function<NodeInfo, String> f) {
    return new Column<>(letter, name, header, g -> g.empty() ? "" : f.apply(g.first()));
  }

  private static String or(String s, String dflt) {
    return s == null || s.isEmpty() ? dflt : s;
  }

  private static String features(List<String> f) {
    return f.isEmpty() ? "(null)" : String.join(",", f);
  }

  private static String avail(String state) {
    return switch (or(state, "UP").toUpperCase(Locale.ROOT)) {
      case "UP" -> "up";
      case "DOWN" -> "down";
      case "DRAIN" -> "drain";
      case "INACTIVE" -> "inact";
      default -> state.toLowerCase(Locale.ROOT);
    };
  }

  private static String limit(int minutes, String none) {
    return limit32(minutes, none, m -> SlurmDuration.formatMinutes(Integer.toUnsignedLong(m)));
  }

  private static String limit32(int v, String none, java.util.function.IntFunction<String> f) {
    return Integer.toUnsignedLong(v) == SlurmTimes.INFINITE ? none : f.apply(v);
  }

  private static String hostlist(NodeGroup g, Function<NodeInfo, String> f) {
    return Hostlist.compress(g.nodes().stream().map(f).distinct().toList());
  }

  private static String reasonUser(NodeGroup g) {
    if (g.empty() || g.first().getReason().isEmpty()) {
      return "Unknown";
    }
    int uid = g.first().getReasonUid();
    return g.users().nameOf(uid).orElse(Integer.toUnsignedString(uid));
  }

  private static String cpuStates(NodeGroup g) {
    long alloc = 0;
    long idle = 0;
    long other = 0;
    for (NodeInfo n : g.nodes()) {
      long a = Math.min(n.getAllocCpus(), n.getCpus());
      alloc += a;
      if (NodeStates.unavailable(n)) {
        other += n.getCpus() - a;
      } else {
        idle += n.getCpus() - a;
      }
    }
    return alloc + "/" + idle + "/" + other + "/" + (alloc + idle + other);
  }

  /** The group's nodes allocated, idle and other (down, drained), as %A and %F count them. */
  private static long[] nodeStates(NodeGroup g) {
    long alloc = 0;
    long idle = 0;
    long other = 0;
    for (NodeInfo n : g.nodes()) {
      NodeStates.Base b = NodeStates.base(n);
      if (n.getAllocCpus() > 0 && b != NodeStates.Base.DOWN && !n.getNotResponding()) {
        alloc++; // running jobs, draining or not (Slurm counts a draining node allocated)
      } else if (NodeStates.unavailable(n)) {
        other++;
      } else if (b == NodeStates.Base.IDLE) {
        idle++;
      } else {
        alloc++;
      }
    }
    return new long[] {alloc, idle, other};
  }
}

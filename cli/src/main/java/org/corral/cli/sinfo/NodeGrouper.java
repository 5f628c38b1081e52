package org.corral.cli.sinfo;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.corral.cli.format.Column;
import org.corral.protocol.NodeStates;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Builds sinfo's lines: nodes of a partition that print alike share a line (all of them when
 * summarising); node-oriented listings give each node of each partition its own line. Lines
 * come partition by partition in configuration order, then by decreasing node state.
 */
final class NodeGrouper {
  private final List<Column<NodeGroup>> keyColumns;
  private final boolean exact;
  private final ZoneId zone;
  private final UserDirectory users;

  NodeGrouper(List<Column<NodeGroup>> printed, boolean exact, ZoneId zone, UserDirectory users) {
    this.keyColumns = printed.stream()
        .filter(c -> !NodeColumns.AGGREGATES.contains(c.letter()))
        .filter(c -> exact || !NodeColumns.SIZES.contains(c.letter()))
        .toList();
    this.exact = exact;
    this.zone = zone;
    this.users = users;
  }

  /**
   * @param byPartition one set of lines per partition (else nodes merge across partitions)
   * @param perNode one line per node
   */
  List<NodeGroup> group(List<PartitionInfo> partitions, List<NodeInfo> nodes,
      Predicate<NodeInfo> selected, boolean byPartition, boolean perNode, boolean summarize) {
    List<NodeGroup> out = new ArrayList<>();
    if (!byPartition && !perNode) {
      out.addAll(groupNodes(null, nodes.stream().filter(selected).toList(), summarize));
      return out;
    }
    Map<String, NodeInfo> byName = new LinkedHashMap<>();
    nodes.forEach(n -> byName.put(n.getName(), n));
    for (PartitionInfo p : partitions) {
      List<NodeInfo> members = p.getNodeNamesList().stream().map(byName::get)
          .filter(n -> n != null && selected.test(n)).toList();
      if (perNode) {
        members.forEach(n -> out.add(new NodeGroup(p, List.of(n), exact, zone, users)));
      } else if (members.isEmpty()) {
        out.add(new NodeGroup(p, List.of(), exact, zone, users));
      } else {
        out.addAll(groupNodes(p, members, summarize));
      }
    }
    if (perNode) {
      List<String> order = new ArrayList<>(byName.keySet());
      out.sort(Comparator.comparingInt(g -> order.indexOf(g.first().getName())));
    }
    return out;
  }

  private List<NodeGroup> groupNodes(PartitionInfo p, List<NodeInfo> members, boolean summarize) {
    Map<List<String>, List<NodeInfo>> groups = new LinkedHashMap<>();
    for (NodeInfo n : members) {
      List<String> key = new ArrayList<>();
      if (!summarize) {
        NodeGroup alone = new NodeGroup(p, List.of(n), exact, zone, users);
        keyColumns.forEach(c -> key.add(c.value().apply(alone)));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
    }
    List<NodeGroup> result = new ArrayList<>();
    groups.values().forEach(ns -> result.add(new NodeGroup(p, ns, exact, zone, users)));
    result.sort(Comparator.comparingInt((NodeGroup g) -> NodeStates.sortKey(g.first())).reversed());
    return result;
  }
}

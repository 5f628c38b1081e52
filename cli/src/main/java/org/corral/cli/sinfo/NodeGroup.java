package org.corral.cli.sinfo;

import java.time.ZoneId;
import java.util.List;
import java.util.function.ToLongFunction;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * One line of sinfo: nodes that print alike, in one partition (null when the format has no
 * partition column), with what rendering needs.
 */
record NodeGroup(PartitionInfo partition, List<NodeInfo> nodes, boolean exact, ZoneId zone,
    UserDirectory users) {

  NodeInfo first() {
    return nodes.get(0);
  }

  boolean empty() {
    return nodes.isEmpty();
  }

  long min(ToLongFunction<NodeInfo> f) {
    return nodes.stream().mapToLong(f).min().orElse(0);
  }

  long max(ToLongFunction<NodeInfo> f) {
    return nodes.stream().mapToLong(f).max().orElse(0);
  }

  /** A configured size: the smallest, with "+" when the nodes differ (unless exact). */
  String size(ToLongFunction<NodeInfo> f) {
    long lo = min(f);
    return lo + (!exact && max(f) > lo ? "+" : "");
  }

  /** A measured value: "lo-hi" when the nodes differ. */
  String range(ToLongFunction<NodeInfo> f, java.util.function.LongFunction<String> fmt) {
    long lo = min(f);
    long hi = max(f);
    return lo == hi ? fmt.apply(lo) : fmt.apply(lo) + "-" + fmt.apply(hi);
  }
}

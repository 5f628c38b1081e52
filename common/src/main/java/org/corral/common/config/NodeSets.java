package org.corral.common.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.corral.common.Hostlist;

/** NodeSet= lines: a name for the nodes with a Feature, or for a Nodes= list, usable in a partition's Nodes=. */
final class NodeSets {
  private NodeSets() {}

  /** Adds a warning for each key of the line that NodeSet lines do not have. */
  static void checkKeys(ConfLine line, List<String> warnings) {
    for (ConfPair p : line.pairs()) {
      if (!Set.of("nodeset", "feature", "nodes").contains(p.key().toLowerCase(Locale.ROOT))) {
        warnings.add(SlurmConfig.where(line) + ": unknown key " + p.key() + " for NodeSet");
      }
    }
  }

  static Map<String, List<String>> resolve(List<ConfLine> lines, List<NodeConfig> nodes) throws ConfigException {
    Map<String, List<String>> sets = new LinkedHashMap<>();
    Set<String> known = new HashSet<>();
    nodes.forEach(n -> known.add(n.name()));
    for (ConfLine line : lines) {
      List<String> members = new ArrayList<>();
      line.get("Feature").ifPresent(f -> nodes.stream().filter(n -> n.features().contains(f))
          .forEach(n -> members.add(n.name())));
      if (line.get("Nodes").isPresent()) {
        String expr = line.get("Nodes").get();
        List<String> listed;
        try {
          listed = expr.equalsIgnoreCase("ALL") ? nodes.stream().map(NodeConfig::name).toList() : Hostlist.expand(expr);
        } catch (IllegalArgumentException e) {
          throw line.invalid("Nodes", expr);
        }
        for (String n : listed) {
          if (!known.contains(n)) {
            throw line.error("Nodes", "invalid value for Nodes: '" + expr + "' (unknown node " + n + ")");
          }
          members.add(n);
        }
      }
      if (sets.put(line.firstValue(), members) != null) {
        throw line.error("NodeSet", "duplicate NodeSet " + line.firstValue());
      }
    }
    return sets;
  }
}

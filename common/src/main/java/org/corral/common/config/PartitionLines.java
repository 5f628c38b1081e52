package org.corral.common.config;

import static org.corral.common.config.ConfValues.bool;
import static org.corral.common.config.ConfValues.countOrUnlimited;
import static org.corral.common.config.ConfValues.intValue;
import static org.corral.common.config.ConfValues.minutes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.corral.common.BillingWeights;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;

/** Builds {@link PartitionConfig}s from PartitionName= lines, applying PartitionName=DEFAULT lines. */
final class PartitionLines {
  private static final Set<String> KEYS = Set.of("partitionname", "allocnodes", "allowaccounts", "allowgroups",
      "allowqos", "alternate", "cpubind", "default", "defaulttime", "defcpupergpu", "defmempercpu", "defmempergpu",
      "defmempernode", "denyaccounts", "denyqos", "disablerootjobs", "exclusiveuser", "gracetime", "hidden", "lln",
      "maxcpuspernode", "maxmempercpu", "maxmempernode", "maxnodes", "maxtime", "minnodes", "nodes",
      "oversubscribe", "overtimelimit", "powerdownonidle", "preemptmode", "priorityjobfactor", "prioritytier",
      "priority", "qos", "reqresv", "resumetimeout", "rootonly", "selecttypeparameters", "shared", "state",
      "suspendtime", "suspendtimeout", "tresbillingweights");
  private static final Set<String> PREEMPT_WORDS = Set.of("OFF", "CANCEL", "GANG", "REQUEUE", "SUSPEND", "WITHIN",
      "PRIORITY");

  private final List<String> allNodes;
  private final Set<String> known;
  private final Map<String, List<String>> nodeSets;
  private final String globalPreemptMode;
  private final RecordDefaults defaults = new RecordDefaults();
  private final List<PartitionConfig> partitions = new ArrayList<>();
  private final Set<String> names = new HashSet<>();

  PartitionLines(List<NodeConfig> nodes, Map<String, List<String>> nodeSets, String globalPreemptMode) {
    this.allNodes = nodes.stream().map(NodeConfig::name).toList();
    this.known = new HashSet<>(allNodes);
    this.nodeSets = nodeSets;
    this.globalPreemptMode = globalPreemptMode;
  }

  List<PartitionConfig> partitions() {
    return partitions;
  }

  /** Adds a warning for each key of the line that PartitionName lines do not have. */
  static void checkKeys(ConfLine line, List<String> warnings) {
    RecordDefaults.checkKeys(line, "PartitionName", KEYS, warnings);
  }

  void add(ConfLine line) throws ConfigException {
    Map<String, String> v = defaults.values(line).orElse(null);
    if (v == null) {
      return; // a DEFAULT line
    }
    String name = line.firstValue();
    if (name.isEmpty() || !names.add(name)) {
      throw line.error("PartitionName", name.isEmpty() ? "empty partition name" : "duplicate partition name " + name);
    }
    String nodesExpr = v.getOrDefault("nodes", "");
    String oversubscribe = v.containsKey("oversubscribe") ? v.get("oversubscribe") : v.getOrDefault("shared", "NO");
    partitions.add(new PartitionConfig(name, nodesExpr, nodes(line, nodesExpr),
        v.containsKey("default") && bool(line, "Default", v.get("default")),
        v.containsKey("maxtime") ? minutes(line, "MaxTime", v.get("maxtime")) : SlurmDuration.INFINITE,
        v.containsKey("defaulttime") ? minutes(line, "DefaultTime", v.get("defaulttime")) : PartitionConfig.NONE,
        v.containsKey("state") ? ConfValues.oneOf(line, "State", v.get("state"), "UP", "DOWN", "DRAIN", "INACTIVE")
            : "UP",
        v.containsKey("minnodes") ? intValue(line, "MinNodes", v.get("minnodes"), 0) : 0,
        v.containsKey("maxnodes") ? countOrUnlimited(line, "MaxNodes", v.get("maxnodes")) : SlurmDuration.INFINITE,
        memory(line, "DefMemPerCPU", v.get("defmempercpu")),
        memory(line, "DefMemPerNode", v.get("defmempernode")),
        memory(line, "MaxMemPerCPU", v.get("maxmempercpu")),
        memory(line, "MaxMemPerNode", v.get("maxmempernode")),
        v.getOrDefault("allowgroups", "ALL"), v.getOrDefault("allowaccounts", "ALL"),
        v.getOrDefault("denyaccounts", ""), v.getOrDefault("allowqos", "ALL"),
        v.containsKey("prioritytier") ? intValue(line, "PriorityTier", v.get("prioritytier"), 0) : 1,
        v.containsKey("priorityjobfactor") ? intValue(line, "PriorityJobFactor", v.get("priorityjobfactor"), 0) : 1,
        v.containsKey("hidden") && bool(line, "Hidden", v.get("hidden")),
        v.containsKey("rootonly") && bool(line, "RootOnly", v.get("rootonly")),
        oversubscribe(line, oversubscribe),
        v.containsKey("exclusiveuser") && bool(line, "ExclusiveUser", v.get("exclusiveuser")),
        v.containsKey("gracetime") ? intValue(line, "GraceTime", v.get("gracetime"), 0) : 0,
        v.containsKey("preemptmode") ? preemptMode(line, v.get("preemptmode")) : globalPreemptMode,
        v.containsKey("maxcpuspernode") ? countOrUnlimited(line, "MaxCPUsPerNode", v.get("maxcpuspernode"))
            : SlurmDuration.INFINITE,
        billingWeights(line, v.get("tresbillingweights"))));
  }

  /** Node names of a Nodes= value (ALL, NodeSet names, hostlists), in node-table order, each once. */
  private List<String> nodes(ConfLine line, String expr) throws ConfigException {
    Set<String> wanted = new LinkedHashSet<>();
    List<String> items;
    try {
      items = Hostlist.expand(expr);
    } catch (IllegalArgumentException e) {
      throw line.invalid("Nodes", expr);
    }
    for (String item : items) {
      if (item.equalsIgnoreCase("ALL")) {
        wanted.addAll(allNodes);
      } else if (nodeSets.containsKey(item)) {
        wanted.addAll(nodeSets.get(item));
      } else if (known.contains(item)) {
        wanted.add(item);
      } else {
        throw line.error("Nodes", "invalid value for Nodes: '" + expr + "' (unknown node " + item + ")");
      }
    }
    return allNodes.stream().filter(wanted::contains).toList();
  }

  private static OptionalLong memory(ConfLine line, String key, String value) throws ConfigException {
    if (value == null || ConfValues.isUnlimited(value)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(ConfValues.megabytes(line, key, value));
  }

  private static BillingWeights billingWeights(ConfLine line, String value) throws ConfigException {
    try {
      return BillingWeights.parse(value);
    } catch (IllegalArgumentException e) {
      throw line.invalid("TRESBillingWeights", value);
    }
  }

  private static String oversubscribe(ConfLine line, String value) throws ConfigException {
    String up = value.trim().toUpperCase(Locale.ROOT);
    int colon = up.indexOf(':');
    String word = colon < 0 ? up : up.substring(0, colon);
    boolean countOk = colon < 0 || (up.substring(colon + 1).matches("[0-9]{1,5}") && !word.equals("NO")
        && !word.equals("EXCLUSIVE"));
    if (!Set.of("NO", "YES", "EXCLUSIVE", "FORCE").contains(word) || !countOk) {
      throw line.invalid("OverSubscribe", value);
    }
    return up;
  }

  static String preemptMode(ConfLine line, String value) throws ConfigException {
    String up = value.trim().toUpperCase(Locale.ROOT);
    for (String w : up.split(",", -1)) {
      if (!PREEMPT_WORDS.contains(w)) {
        throw line.invalid("PreemptMode", value);
      }
    }
    return up;
  }
}

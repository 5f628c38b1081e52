package org.corral.common.config;

import static org.corral.common.config.ConfValues.intValue;
import static org.corral.common.config.ConfValues.megabytes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.corral.common.Hostlist;

/** Builds {@link NodeConfig}s from NodeName= lines, in order, applying NodeName=DEFAULT lines. */
final class NodeLines {
  private static final Set<String> KEYS = Set.of("nodename", "nodehostname", "nodeaddr", "bcastaddr", "boards",
      "corespeccount", "corespersocket", "cpubind", "cpus", "procs", "cpuspeclist", "feature", "features",
      "gres", "memspeclimit", "port", "realmemory", "reason", "sockets", "socketsperboard", "state",
      "threadspercore", "tmpdisk", "weight");
  private static final String[] STATES = {"CLOUD", "DOWN", "DRAIN", "FAIL", "FAILING", "FUTURE", "UNKNOWN", "IDLE"};

  private final int defaultPort;
  private final RecordDefaults defaults = new RecordDefaults();
  private final List<NodeConfig> nodes = new ArrayList<>();
  private final Set<String> names = new HashSet<>();

  NodeLines(int defaultPort) {
    this.defaultPort = defaultPort;
  }

  List<NodeConfig> nodes() {
    return nodes;
  }

  /** Adds a warning for each key of the line that NodeName lines do not have. */
  static void checkKeys(ConfLine line, List<String> warnings) {
    RecordDefaults.checkKeys(line, "NodeName", KEYS, warnings);
  }

  void add(ConfLine line) throws ConfigException {
    Map<String, String> v = defaults.values(line).orElse(null);
    if (v == null) {
      return; // a DEFAULT line
    }
    build(line, v);
  }

  private void build(ConfLine line, Map<String, String> v) throws ConfigException {
    List<String> nodeNames = hosts(line, "NodeName", v.get("nodename"));
    List<String> hostnames = perNode(line, "NodeHostname", v.get("nodehostname"), nodeNames, nodeNames);
    List<String> addrs = perNode(line, "NodeAddr", v.get("nodeaddr"), nodeNames, hostnames);
    List<Integer> ports = ports(line, v.get("port"), nodeNames.size());

    int boards = positive(line, "Boards", v.get("boards"), 1);
    int cores = positive(line, "CoresPerSocket", v.get("corespersocket"), 1);
    int threads = positive(line, "ThreadsPerCore", v.get("threadspercore"), 1);
    String socketsText = v.containsKey("socketsperboard") ? v.get("socketsperboard") : v.get("sockets");
    String cpusText = v.containsKey("cpus") ? v.get("cpus") : v.get("procs");
    Integer cpusGiven = cpusText == null ? null : positive(line, "CPUs", cpusText, 1);
    int sockets;
    if (socketsText != null) {
      sockets = boards * positive(line, v.containsKey("socketsperboard") ? "SocketsPerBoard" : "Sockets", socketsText, 1);
    } else if (cpusGiven != null) {
      // Slurm infers sockets from CPUs when they are not given.
      sockets = Math.max(1, cpusGiven / (cores * threads));
    } else {
      sockets = boards;
    }
    long product = (long) sockets * cores * threads;
    if (cpusGiven == null && product > Integer.MAX_VALUE) {
      throw line.error("CPUs", "invalid value for CPUs: Sockets*CoresPerSocket*ThreadsPerCore is too large");
    }
    int cpus = cpusGiven != null ? cpusGiven : (int) product;
    long realMemory = v.containsKey("realmemory") ? megabytes(line, "RealMemory", v.get("realmemory")) : 1;
    long tmpDisk = v.containsKey("tmpdisk") ? megabytes(line, "TmpDisk", v.get("tmpdisk")) : 0;
    int weight = v.containsKey("weight") ? intValue(line, "Weight", v.get("weight"), 0) : 1;
    String featureText = v.containsKey("features") ? v.get("features") : v.getOrDefault("feature", "");
    List<String> features = featureText.isBlank() ? List.of()
        : Arrays.stream(featureText.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    String state = v.containsKey("state") ? ConfValues.oneOf(line, "State", v.get("state"), STATES) : "UNKNOWN";
    String gres = v.getOrDefault("gres", "");
    String reason = v.getOrDefault("reason", "");

    for (int i = 0; i < nodeNames.size(); i++) {
      String name = nodeNames.get(i);
      if (!names.add(name)) {
        throw line.error("NodeName", "duplicate node name " + name);
      }
      nodes.add(new NodeConfig(name, hostnames.get(i), addrs.get(i), ports.get(i), cpus, boards, sockets, cores,
          threads, realMemory, tmpDisk, weight, features, gres, state, reason));
    }
  }

  private static List<String> hosts(ConfLine line, String key, String expr) throws ConfigException {
    try {
      List<String> out = Hostlist.expand(expr);
      if (out.isEmpty()) {
        throw line.invalid(key, expr);
      }
      return out;
    } catch (IllegalArgumentException e) {
      throw line.invalid(key, expr);
    }
  }

  /** A hostlist paired one-to-one with the node names, or one value for all; absent means {@code fallback}. */
  private static List<String> perNode(ConfLine line, String key, String expr, List<String> names,
      List<String> fallback) throws ConfigException {
    if (expr == null) {
      return fallback;
    }
    List<String> list = hosts(line, key, expr);
    if (list.size() == 1) {
      return Collections.nCopies(names.size(), list.get(0));
    }
    if (list.size() != names.size()) {
      throw line.error(key, key + " count (" + list.size() + ") does not match NodeName count (" + names.size() + ")");
    }
    return list;
  }

  private List<Integer> ports(ConfLine line, String text, int count) throws ConfigException {
    if (text == null) {
      return Collections.nCopies(count, defaultPort);
    }
    String t = text.trim();
    if (t.startsWith("[") && t.endsWith("]")) {
      t = t.substring(1, t.length() - 1);
    }
    List<Integer> ports = new ArrayList<>();
    for (String part : t.split(",", -1)) {
      int dash = part.indexOf('-');
      int lo = port(line, text, dash < 0 ? part : part.substring(0, dash));
      int hi = dash < 0 ? lo : port(line, text, part.substring(dash + 1));
      if (hi < lo) {
        throw line.invalid("Port", text);
      }
      for (int p = lo; p <= hi && ports.size() <= count; p++) {
        ports.add(p);
      }
    }
    if (ports.size() == 1) {
      return Collections.nCopies(count, ports.get(0));
    }
    if (ports.size() != count) {
      throw line.error("Port", "Port count does not match NodeName count (" + count + ")");
    }
    return ports;
  }

  private static int port(ConfLine line, String text, String s) throws ConfigException {
    try {
      int p = Integer.parseInt(s.trim());
      if (p >= 1 && p <= 65535) {
        return p;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw line.invalid("Port", text);
  }

  private static int positive(ConfLine line, String key, String text, int dflt) throws ConfigException {
    return text == null ? dflt : intValue(line, key, text, 1);
  }
}

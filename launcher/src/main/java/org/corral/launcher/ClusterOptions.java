package org.corral.launcher;

import java.nio.file.Path;
import java.util.List;

/** `corral` sub-command options, with Slurm-like defaults for a local cluster. */
/**
 * @param shaped whether the command line set the cluster's shape or ports (then a stopped
 *     cluster's generated slurm.conf is written anew)
 */
record ClusterOptions(int nodes, int cpus, long memoryMb, Path dir, int portBase, Path config,
    boolean shaped) {
  static final int DEFAULT_PORT_BASE = 6817;

  /** Ports relative to the base: controller, slurmd default, dbd, restd, then one per node. */
  int controllerPort() {
    return portBase;
  }

  int dbdPort() {
    return portBase + 2;
  }

  int nodePort(int index) {
    return portBase + 10 + index;
  }

  static ClusterOptions parse(List<String> args) {
    int nodes = 4;
    int cpus = 8;
    long mem = 4000;
    Path dir = Path.of(".corral");
    int port = DEFAULT_PORT_BASE;
    Path config = null;
    boolean shaped = false;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String key = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      String value = a.contains("=") ? a.substring(a.indexOf('=') + 1)
          : i + 1 < args.size() ? args.get(++i) : null;
      if (value == null) {
        throw new IllegalArgumentException("option " + key + " needs a value");
      }
      shaped |= List.of("--nodes", "--cpus", "--memory", "--port-base").contains(key);
      try {
        switch (key) {
          case "--nodes" -> nodes = positive(key, Integer.parseInt(value));
          case "--cpus" -> cpus = positive(key, Integer.parseInt(value));
          case "--memory" -> mem = positive(key, Integer.parseInt(value));
          case "--dir" -> dir = Path.of(value);
          case "--port-base" -> port = Integer.parseInt(value);
          case "--config" -> config = Path.of(value).toAbsolutePath();
          default -> throw new IllegalArgumentException("unknown option " + key);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("option " + key + " needs a number, not '" + value + "'");
      }
    }
    if (port < 1024 || port > 65000) {
      throw new IllegalArgumentException("--port-base must be between 1024 and 65000");
    }
    return new ClusterOptions(nodes, cpus, mem, dir.toAbsolutePath().normalize(), port, config, shaped);
  }

  private static int positive(String key, int v) {
    if (v < 1) {
      throw new IllegalArgumentException("option " + key + " must be at least 1");
    }
    return v;
  }
}

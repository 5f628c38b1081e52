package org.corral.ctld.runtime;

import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.corral.common.Hostlist;
import org.corral.common.config.CgroupConf;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.nodes.NodeAgent;

/**
 * What the controller knows about confinement: cgroup.conf (shown by scontrol show config in its
 * "Cgroup Support Configuration" section), the backend each node daemon reported it uses, and
 * the sstat path to the nodes. Node reports are not part of the durable state: nodes repeat them
 * with every registration.
 */
final class Confinement {
  /** ConfigReply keys of the cgroup.conf section carry this prefix. */
  static final String CGROUP_KEY_PREFIX = "cgroup.conf:";
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private final CgroupConf conf;
  private final boolean confExists;
  private final Map<String, String> nodeBackends = new ConcurrentHashMap<>();
  private final StepStatRequests stepStats;

  Confinement(CgroupConf conf, boolean confExists, StepStatRequests stepStats) {
    this.conf = conf;
    this.confExists = confExists;
    this.stepStats = stepStats;
  }

  static Confinement load(SlurmConfig cfg, NodeAgent agent, Authorizer auth) {
    Path file = cfg.path().resolveSibling("cgroup.conf");
    CgroupConf conf = CgroupConf.defaults();
    boolean exists = Files.isRegularFile(file);
    if (exists) {
      try {
        conf = CgroupConf.load(file);
      } catch (ConfigException e) {
        LOG.log(Level.ERROR, "cgroup.conf: " + e.getMessage());
      }
    }
    return new Confinement(conf, exists, new StepStatRequests(agent, auth));
  }

  StepStatRequests stepStats() {
    return stepStats;
  }

  /** A node said which backend confines its jobs ("" from a daemon that does not tell). */
  void nodeUses(String node, String backend) {
    if (!backend.isEmpty()) {
      nodeBackends.put(node, backend);
    }
  }

  /**
   * The cgroup.conf section as Slurm 22.05 lists it, plus CgroupPluginInUse: the backend each
   * node reported, grouped ("n[1-3]=cgroup/v1,n4=none"), so that a node running unconfined shows.
   */
  Map<String, String> configEntries() {
    Map<String, String> out = new LinkedHashMap<>();
    if (!confExists && nodeBackends.isEmpty()) {
      return out;
    }
    put(out, "AllowedKmemSpace", "(null)");
    put(out, "AllowedRAMSpace", percent(conf.allowedRAMSpace()));
    put(out, "AllowedSwapSpace", percent(conf.allowedSwapSpace()));
    put(out, "CgroupAutomount", "yes");
    put(out, "CgroupMountpoint", conf.cgroupMountpoint().toString());
    put(out, "CgroupPlugin", conf.cgroupPlugin());
    put(out, "CgroupPluginInUse", inUse());
    put(out, "ConstrainCores", yesNo(conf.constrainCores()));
    put(out, "ConstrainDevices", yesNo(conf.constrainDevices()));
    put(out, "ConstrainKmemSpace", "no");
    put(out, "ConstrainRAMSpace", yesNo(conf.constrainRAMSpace()));
    put(out, "ConstrainSwapSpace", yesNo(conf.constrainSwapSpace()));
    put(out, "IgnoreSystemd", yesNo(conf.ignoreSystemd()));
    put(out, "IgnoreSystemdOnFailure", "no");
    put(out, "MaxKmemPercent", "100.0%");
    put(out, "MaxRAMPercent", percent(conf.maxRAMPercent()));
    put(out, "MaxSwapPercent", percent(conf.maxSwapPercent()));
    put(out, "MemorySwappiness", "(null)");
    put(out, "MinKmemSpace", "30 MB");
    put(out, "MinRAMSpace", conf.minRAMSpaceMb() + " MB");
    return out;
  }

  private String inUse() {
    Map<String, List<String>> byBackend = new TreeMap<>();
    new TreeMap<>(nodeBackends).forEach((node, backend) ->
        byBackend.computeIfAbsent(backend, k -> new ArrayList<>()).add(node));
    List<String> parts = new ArrayList<>();
    byBackend.forEach((backend, nodes) -> parts.add(Hostlist.compress(nodes) + "=" + backend));
    return parts.isEmpty() ? "(unknown)" : String.join(",", parts);
  }

  private static void put(Map<String, String> out, String key, String value) {
    out.put(CGROUP_KEY_PREFIX + key, value);
  }

  private static String percent(double value) {
    return String.format(Locale.ROOT, "%.1f%%", value);
  }

  private static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }
}

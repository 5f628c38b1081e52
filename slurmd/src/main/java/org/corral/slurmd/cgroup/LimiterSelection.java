package org.corral.slurmd.cgroup;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.config.CgroupConf;

/**
 * Chooses the backend cgroup.conf's CgroupPlugin asks for. autodetect tries the tree the mount
 * point holds (cgroup2 when it has cgroup.controllers, else v1) and then the other; an explicit
 * cgroup/v1 or cgroup/v2 tries only that one. When nothing works, jobs run unconfined under
 * {@link NoConfinement} and the log says why, once.
 */
public final class LimiterSelection {
  private static final System.Logger LOG = System.getLogger("slurmd");

  private LimiterSelection() {}

  public static ResourceLimiter choose(CgroupConf conf, NodeCgroupName name, long nodeMemoryBytes) {
    String self;
    try {
      self = Files.readString(Path.of("/proc/self/cgroup"));
    } catch (IOException e) {
      self = "";
    }
    return choose(CgroupFs.kernel(), conf, conf.cgroupMountpoint(), self, name, nodeMemoryBytes,
        ProcessHandle.current().pid());
  }

  static ResourceLimiter choose(CgroupFs fs, CgroupConf conf, Path mount, String procSelfCgroup,
      NodeCgroupName name, long nodeMemoryBytes, long selfPid) {
    Map<String, String> v1Paths = new HashMap<>();
    String v2Path = "/";
    for (String line : procSelfCgroup.split("\n")) {
      String[] parts = line.split(":", 3);
      if (parts.length < 3) {
        continue;
      }
      if (parts[0].equals("0") && parts[1].isEmpty()) {
        v2Path = parts[2];
      } else {
        for (String controller : parts[1].split(",")) {
          v1Paths.put(controller, parts[2]);
        }
      }
    }
    boolean unified = Files.exists(mount.resolve("cgroup.controllers"));
    List<String> order = switch (conf.cgroupPlugin()) {
      case "cgroup/v1" -> List.of("cgroup/v1");
      case "cgroup/v2" -> List.of("cgroup/v2");
      default -> unified ? List.of("cgroup/v2", "cgroup/v1") : List.of("cgroup/v1", "cgroup/v2");
    };
    List<String> failures = new ArrayList<>();
    for (String plugin : order) {
      try {
        ResourceLimiter limiter = plugin.equals("cgroup/v1")
            ? new CgroupV1(fs, conf, mount, v1Paths, name, nodeMemoryBytes)
            : new CgroupV2(fs, conf, mount, v2Path, name, nodeMemoryBytes, selfPid);
        LOG.log(Level.INFO, "confinement: " + plugin + " (CgroupPlugin=" + conf.cgroupPlugin() + ", ConstrainCores="
            + yesNo(conf.constrainCores()) + ", ConstrainRAMSpace=" + yesNo(conf.constrainRAMSpace())
            + ", ConstrainSwapSpace=" + yesNo(conf.constrainSwapSpace()) + ")");
        return limiter;
      } catch (IOException | RuntimeException e) {
        failures.add(plugin + ": " + e.getMessage());
      }
    }
    LOG.log(Level.WARNING, "confinement: none; jobs run without CPU or memory limits (" + String.join("; ", failures)
        + ")");
    return new NoConfinement();
  }

  private static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }
}

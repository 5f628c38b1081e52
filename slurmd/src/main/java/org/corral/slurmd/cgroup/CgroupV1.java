package org.corral.slurmd.cgroup;

import org.corral.protocol.CpuList;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.corral.common.config.CgroupConf;

/**
 * cgroup v1: one hierarchy per controller under the mount point (memory, cpuacct, and cpuset with
 * ConstrainCores). The node's directories sit under the daemon's own cgroup in each hierarchy, so
 * that jobs stay inside whatever limits the daemon itself was given.
 */
final class CgroupV1 extends CgroupBackend {
  private static final System.Logger LOG = System.getLogger("slurmd");
  /** USER_HZ: cpuacct.stat counts in these ticks. */
  private static final long MILLIS_PER_TICK = 10;

  private final List<String> controllers;
  private final List<Path> roots;

  /**
   * @param ownPaths the daemon's own cgroup per controller (/proc/self/cgroup), "/" if unknown
   * @throws IOException when the memory hierarchy (or cpuset, with ConstrainCores) is missing
   *     or its directories cannot be created
   */
  CgroupV1(CgroupFs fs, CgroupConf conf, Path mount, Map<String, String> ownPaths, NodeCgroupName name,
      long nodeMemoryBytes) throws IOException {
    super(fs, conf, nodeMemoryBytes);
    List<String> found = new ArrayList<>();
    for (String c : List.of("memory", "cpuset", "cpuacct", "devices")) {
      // Joining a cpuset costs the kernel milliseconds per process: only when cores are confined.
      if (Files.isRegularFile(mount.resolve(c).resolve("cgroup.procs")) && (conf.constrainCores() || !c.equals("cpuset"))
          && (conf.constrainDevices() || !c.equals("devices"))) {
        found.add(c);
      }
    }
    if (!found.contains("memory")) {
      throw new IOException("no cgroup v1 memory controller at " + mount.resolve("memory"));
    }
    if (conf.constrainDevices() && !found.contains("devices")) {
      throw new IOException("ConstrainDevices needs the cgroup v1 devices controller, not mounted at " + mount);
    }
    if (conf.constrainCores() && !found.contains("cpuset")) {
      throw new IOException("ConstrainCores needs the cgroup v1 cpuset controller, not mounted at " + mount);
    }
    this.controllers = List.copyOf(found);
    List<Path> made = new ArrayList<>();
    for (int h = 0; h < controllers.size(); h++) {
      String own = ownPaths.getOrDefault(controllers.get(h), "/");
      Path parent = mount.resolve(controllers.get(h)).resolve(own.replaceFirst("^/+", ""));
      made.add(nodeRoot(h, parent, name));
    }
    this.roots = List.copyOf(made);
  }

  @Override
  public String name() {
    return "cgroup/v1";
  }

  @Override
  List<Path> nodeRoots() {
    return roots;
  }

  private int index(String controller) {
    return controllers.indexOf(controller);
  }

  @Override
  void prepare(int hierarchy, Path dir, boolean leaf) throws IOException {
    if (controllers.get(hierarchy).equals("cpuset")) {
      // A new cpuset has no CPUs or memory nodes: no process could join it.
      for (String file : List.of("cpuset.cpus", "cpuset.mems")) {
        if (fs.read(dir.resolve(file)).map(String::isBlank).orElse(true)) {
          fs.write(dir.resolve(file), fs.read(dir.getParent().resolve(file)).orElse("").strip());
        }
      }
    }
  }

  @Override
  void applyLimits(List<Path> jobDirs, BitSet cpus, MemoryLimits limits) throws IOException {
    Path memory = jobDirs.get(index("memory"));
    if (limits.limitsRam()) {
      fs.write(memory.resolve("memory.limit_in_bytes"), Long.toString(limits.ramBytes()));
    }
    if (limits.limitsSwap()) {
      Path memsw = memory.resolve("memory.memsw.limit_in_bytes");
      if (Files.exists(memsw)) {
        fs.write(memsw, Long.toString(limits.ramAndSwapBytes()));
      } else {
        LOG.log(Level.WARNING, "ConstrainSwapSpace: the kernel has no memory.memsw (swap accounting off)");
      }
    }
    int cpuset = index("cpuset");
    if (!cpus.isEmpty() && cpuset >= 0) {
      fs.write(jobDirs.get(cpuset).resolve("cpuset.cpus"), CpuList.format(cpus));
    }
  }

  /** devices.deny takes one rule per write: "c 195:1 rwm". Children made later inherit it, and the kernel passes it down to those that exist. */
  @Override
  void deny(List<Path> dirs, List<String> devices) throws IOException {
    int h = index("devices");
    if (devices.isEmpty()) {
      return;
    }
    if (h < 0) {
      throw new IOException("no cgroup v1 devices controller in use (ConstrainDevices=no?)");
    }
    for (String d : devices) {
      fs.write(dirs.get(h).resolve("devices.deny"), d + " rwm");
    }
  }

  @Override
  CgroupUsage usage(List<Path> dirs) {
    Path memory = dirs.get(index("memory"));
    int cpuacct = index("cpuacct");
    long user = -1;
    long system = -1;
    if (cpuacct >= 0) {
      long[] stat = fs.keyed(dirs.get(cpuacct).resolve("cpuacct.stat"), "user", "system");
      user = ticks(stat[0]);
      system = ticks(stat[1]);
    }
    long kills = Math.max(0, fs.keyed(memory.resolve("memory.oom_control"), "oom_kill"));
    return new CgroupUsage(user, system, fs.number(memory.resolve("memory.max_usage_in_bytes")), kills);
  }

  @Override
  long cacheBytes(List<Path> dirs) {
    return fs.keyed(dirs.get(index("memory")).resolve("memory.stat"), "cache");
  }

  @Override
  long oomKills(List<Path> jobDirs) {
    Path job = jobDirs.get(index("memory"));
    long kills = Math.max(0, fs.keyed(job.resolve("memory.oom_control"), "oom_kill"));
    for (Path step : fs.subdirs(job, "step_")) {
      kills += Math.max(0, fs.keyed(step.resolve("memory.oom_control"), "oom_kill"));
    }
    return kills;
  }

  private static long ticks(long ticks) {
    return ticks < 0 ? -1 : ticks * MILLIS_PER_TICK;
  }
}

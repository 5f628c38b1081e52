package org.corral.slurmd.cgroup;

import org.corral.protocol.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.corral.common.config.CgroupConf;

/**
 * cgroup v2: one unified tree. The node's directory sits under the daemon's own cgroup; the
 * controllers (cpuset, memory, cpu) are delegated down each inner level through
 * cgroup.subtree_control. v2 allows processes only in leaves, so when the daemon's own cgroup
 * holds the daemon itself, the daemon first moves into a leaf of its own
 * ({@code <cluster>/slurm_<node>/slurmd}), as Slurm's slurmd does; when other processes share it
 * too, the node's tree goes under the top of the hierarchy instead
 * ({@code corral/<cluster>/slurm_<node>}). {@link NodeCgroupName} says why the cluster's level.
 */
final class CgroupV2 extends CgroupBackend {
  private final Path root;
  private final String delegated;

  /**
   * @param ownPath the daemon's own cgroup (the "0::" line of /proc/self/cgroup)
   * @throws IOException when the tree is not cgroup2 or the controllers cannot be delegated
   */
  CgroupV2(CgroupFs fs, CgroupConf conf, Path mount, String ownPath, NodeCgroupName name, long nodeMemoryBytes,
      long selfPid) throws IOException {
    super(fs, conf, nodeMemoryBytes);
    Path own = mount.resolve(ownPath.replaceFirst("^/+", ""));
    String controllers;
    Path node;
    try {
      controllers = controllers(own, conf);
      node = underOwn(own, name, selfPid, controllers);
    } catch (IOException ownRefused) {
      try {
        controllers = controllers(mount, conf);
        node = underTop(mount, name, controllers);
      } catch (IOException topRefused) {
        throw new IOException(ownRefused.getMessage() + "; and at the top, " + topRefused.getMessage(), topRefused);
      }
    }
    this.delegated = controllers;
    fs.write(node.resolve("cgroup.subtree_control"), delegated);
    this.root = node;
  }

  /** What to delegate from a cgroup ("+cpuset +memory +cpu"), or why it cannot serve. */
  private String controllers(Path dir, CgroupConf conf) throws IOException {
    String available = fs.read(dir.resolve("cgroup.controllers"))
        .orElseThrow(() -> new IOException("no cgroup2 tree at " + dir + " (no cgroup.controllers)"));
    Set<String> have = Set.of(available.strip().split("\\s+"));
    if (!have.contains("memory")) {
      throw new IOException("the cgroup2 tree at " + dir + " offers no memory controller (has: " + available.strip() + ")");
    }
    if (conf.constrainCores() && !have.contains("cpuset")) {
      throw new IOException("ConstrainCores needs the cgroup2 cpuset controller, not offered at " + dir);
    }
    List<String> wanted = new ArrayList<>();
    for (String c : List.of("cpuset", "memory", "cpu")) {
      if (have.contains(c)) {
        wanted.add("+" + c);
      }
    }
    return String.join(" ", wanted);
  }

  /** CLUSTER/slurm_NODE under the daemon's own cgroup, the daemon moved into a leaf if it lives there. */
  private Path underOwn(Path own, NodeCgroupName name, long selfPid, String controllers) throws IOException {
    Path node = name.nodeDir(own);
    fs.mkdir(name.clusterDir(own));
    fs.mkdir(node);
    try {
      fs.write(own.resolve("cgroup.subtree_control"), controllers);
    } catch (IOException busy) {
      // Processes (this daemon) in our own cgroup: move into a leaf and try once more.
      Path daemon = node.resolve("slurmd");
      fs.mkdir(daemon);
      fs.write(daemon.resolve("cgroup.procs"), Long.toString(selfPid));
      fs.write(own.resolve("cgroup.subtree_control"), controllers);
    }
    fs.write(name.clusterDir(own).resolve("cgroup.subtree_control"), controllers);
    return node;
  }

  /**
   * corral/CLUSTER/slurm_NODE under the tree's top, for a daemon whose cgroup cannot delegate: shared
   * with other processes (started from a shell or an agent rather than in a delegated systemd
   * scope) or not given the controllers, as Slurm's slurmd does with IgnoreSystemd=yes. The top
   * cgroup may hold processes and still delegate.
   */
  private Path underTop(Path mount, NodeCgroupName name, String controllers) throws IOException {
    try {
      fs.write(mount.resolve("cgroup.subtree_control"), controllers);
    } catch (IOException alreadyOnOrRefused) {
      // corral/ below says whether the controllers are there
    }
    Path top = mount.resolve("corral");
    fs.mkdir(top);
    fs.write(top.resolve("cgroup.subtree_control"), controllers);
    fs.mkdir(name.clusterDir(top));
    fs.write(name.clusterDir(top).resolve("cgroup.subtree_control"), controllers);
    Path node = name.nodeDir(top);
    fs.mkdir(node);
    return node;
  }

  @Override
  public String name() {
    return "cgroup/v2";
  }

  @Override
  List<Path> nodeRoots() {
    return List.of(root);
  }

  @Override
  void prepare(int hierarchy, Path dir, boolean leaf) throws IOException {
    if (!leaf) {
      fs.write(dir.resolve("cgroup.subtree_control"), delegated);
    }
  }

  @Override
  void applyLimits(List<Path> jobDirs, BitSet cpus, MemoryLimits limits) throws IOException {
    Path job = jobDirs.get(0);
    if (limits.limitsRam()) {
      fs.write(job.resolve("memory.max"), Long.toString(limits.ramBytes()));
    }
    if (limits.limitsSwap()) {
      // v2 limits swap alone, not RAM+swap as v1 does.
      fs.write(job.resolve("memory.swap.max"), Long.toString(limits.ramAndSwapBytes() - limits.ramBytes()));
    }
    if (!cpus.isEmpty()) {
      fs.write(job.resolve("cpuset.cpus"), CpuList.format(cpus));
    }
  }

  /** v2 filters devices with a BPF program on the directory; a step's adds to its job's. */
  @Override
  void deny(List<Path> dirs, List<String> devices) throws IOException {
    BpfDeviceFilter.deny(dirs.get(0), devices);
  }

  @Override
  CgroupUsage usage(List<Path> dirs) {
    Path step = dirs.get(0);
    Path stat = step.resolve("cpu.stat");
    long[] usec = fs.keyed(stat, "user_usec", "system_usec");
    long user = usec[0];
    long system = usec[1];
    long peak = Files.exists(step.resolve("memory.peak")) ? fs.number(step.resolve("memory.peak")) : -1;
    return new CgroupUsage(user < 0 ? -1 : user / 1000, system < 0 ? -1 : system / 1000, peak,
        Math.max(0, fs.keyed(step.resolve("memory.events"), "oom_kill")));
  }

  @Override
  long cacheBytes(List<Path> dirs) {
    return fs.keyed(dirs.get(0).resolve("memory.stat"), "file");
  }

  @Override
  long oomKills(List<Path> jobDirs) {
    // memory.events counts the whole subtree in v2.
    return Math.max(0, fs.keyed(jobDirs.get(0).resolve("memory.events"), "oom_kill"));
  }
}

package org.corral.slurmd.cgroup;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.corral.common.config.CgroupConf;

/**
 * What cgroup v1 and v2 share: Slurm's layout {@code slurm_<node>/uid_<uid>/job_<id>/step_<step>}
 * in each hierarchy the backend uses (v1: one per controller; v2: the one unified tree), with
 * the node's name in the path because several slurmd's may share one host, under a directory
 * of the node's cluster because several clusters may too ({@link NodeCgroupName}). Limits sit on
 * the job level; processes only ever join step (leaf) directories.
 */
abstract class CgroupBackend implements ResourceLimiter {
  private static final System.Logger LOG = System.getLogger("slurmd");
  private static final long KILL_WAIT_MILLIS = 3000;

  final CgroupFs fs;
  final CgroupConf conf;
  final long nodeMemoryBytes;
  /** Guards creating the shared upper levels (uid_N) against their removal at shutdown. */
  private final Object layout = new Object();

  CgroupBackend(CgroupFs fs, CgroupConf conf, long nodeMemoryBytes) {
    this.fs = fs;
    this.conf = conf;
    this.nodeMemoryBytes = nodeMemoryBytes;
  }

  /** The node's top directory in each hierarchy ({@code .../<cluster>/slurm_<node>}), all existing. */
  abstract List<Path> nodeRoots();

  /** Makes a new directory ready: for processes (a leaf) or for children (an inner level). */
  abstract void prepare(int hierarchy, Path dir, boolean leaf) throws IOException;

  abstract void applyLimits(List<Path> jobDirs, BitSet cpus, MemoryLimits limits) throws IOException;

  /** The step's counters; {@code dirs} are the step's directories, one per hierarchy. */
  abstract CgroupUsage usage(List<Path> dirs);

  /** Denies devices to the processes under these directories (one per hierarchy) (v1: devices.deny; v2: a BPF program). */
  void deny(List<Path> dirs, List<String> devices) throws IOException {
    if (!devices.isEmpty()) {
      throw new IOException(name() + " cannot constrain devices (ConstrainDevices)");
    }
  }

  /** OOM kills in the job's subtree; {@code dirs} are the job's directories. */
  abstract long oomKills(List<Path> jobDirs);

  /** A scope's page cache: memory.stat's cache (v1) or file (v2); -1 when unreadable. */
  abstract long cacheBytes(List<Path> dirs);

  @Override
  public boolean confines() {
    return true;
  }

  @Override
  public JobScope limitJob(int jobId, int uid, BitSet cpus, long memoryBytes) throws IOException {
    MemoryLimits limits = MemoryLimits.of(conf, memoryBytes, nodeMemoryBytes);
    BitSet constrained = conf.constrainCores() ? (BitSet) cpus.clone() : new BitSet();
    List<Path> jobDirs = new ArrayList<>();
    synchronized (layout) {
      List<Path> roots = nodeRoots();
      for (int h = 0; h < roots.size(); h++) {
        Path uidDir = roots.get(h).resolve("uid_" + Integer.toUnsignedString(uid));
        if (fs.mkdir(uidDir)) {
          prepare(h, uidDir, false);
        }
        Path jobDir = uidDir.resolve("job_" + Integer.toUnsignedString(jobId));
        if (fs.mkdir(jobDir)) {
          prepare(h, jobDir, false);
        }
        jobDirs.add(jobDir);
      }
    }
    applyLimits(jobDirs, constrained, limits);
    return new Job(jobId, jobDirs, constrained, limits.ramBytes());
  }

  @Override
  public Optional<JobScope> findJob(int jobId) {
    List<Path> roots = nodeRoots();
    String name = "job_" + Integer.toUnsignedString(jobId);
    for (Path uidDir : fs.subdirs(roots.get(0), "uid_")) {
      if (Files.isDirectory(uidDir.resolve(name))) {
        return Optional.of(new Job(jobId, jobDirs(roots, uidDir, name), new BitSet(), 0));
      }
    }
    return Optional.empty();
  }

  @Override
  public List<Integer> removeIdleJobs(Set<Integer> keep) {
    List<Integer> removed = new ArrayList<>();
    synchronized (layout) {
      List<Path> roots = nodeRoots();
      for (Path uidDir : fs.subdirs(roots.get(0), "uid_")) {
        for (Path jobDir : fs.subdirs(uidDir, "job_")) {
          int jobId;
          try {
            jobId = Integer.parseUnsignedInt(jobDir.getFileName().toString().substring("job_".length()));
          } catch (NumberFormatException notOurs) {
            continue;
          }
          List<Path> dirs = jobDirs(roots, uidDir, jobDir.getFileName().toString());
          if (!keep.contains(jobId) && idle(dirs)) {
            new Job(jobId, dirs, new BitSet(), 0).remove();
            removed.add(jobId);
          }
        }
      }
    }
    return removed;
  }

  /** A job's directory in each hierarchy, from its user's directory in the first. */
  private static List<Path> jobDirs(List<Path> roots, Path uidDir, String jobName) {
    List<Path> dirs = new ArrayList<>();
    for (Path root : roots) {
      dirs.add(root.resolve(uidDir.getFileName().toString()).resolve(jobName));
    }
    return dirs;
  }

  /** Whether no process is in these job directories or their steps. */
  private boolean idle(List<Path> jobDirs) {
    for (Path dir : jobDirs) {
      if (!pids(dir).isEmpty()) {
        return false;
      }
      for (Path step : fs.subdirs(dir, "step_")) {
        if (!pids(step).isEmpty()) {
          return false;
        }
      }
    }
    return true;
  }

  private final class Job implements JobScope {
    private final int jobId;
    private final List<Path> dirs;
    private final BitSet cpus;
    private final long memoryLimit;

    Job(int jobId, List<Path> dirs, BitSet cpus, long memoryLimit) {
      this.jobId = jobId;
      this.dirs = List.copyOf(dirs);
      this.cpus = cpus;
      this.memoryLimit = memoryLimit;
    }

    @Override
    public int jobId() {
      return jobId;
    }

    @Override
    public StepScope openStep(String stepId) throws IOException {
      if (!stepId.matches("[A-Za-z0-9_]{1,32}")) {
        throw new IllegalArgumentException("not a step id: " + stepId);
      }
      List<Path> stepDirs = new ArrayList<>();
      for (int h = 0; h < dirs.size(); h++) {
        if (!Files.isDirectory(dirs.get(h))) {
          throw new IOException("job " + jobId + " has no scope in " + dirs.get(h).getParent());
        }
        Path step = dirs.get(h).resolve("step_" + stepId);
        if (fs.mkdir(step)) {
          prepare(h, step, true);
        }
        stepDirs.add(step);
      }
      return new Step(stepId, stepDirs);
    }

    @Override
    public List<String> steps() {
      return fs.subdirs(dirs.get(0), "step_").stream().map(p -> p.getFileName().toString())
          .map(n -> n.substring(5)).toList();
    }

    @Override
    public long oomKills() {
      return CgroupBackend.this.oomKills(dirs);
    }

    @Override
    public void denyDevices(List<String> devices) throws IOException {
      deny(dirs, devices);
    }

    @Override
    public BitSet cpus() {
      return (BitSet) cpus.clone();
    }

    @Override
    public long memoryLimitBytes() {
      return memoryLimit;
    }

    @Override
    public void remove() {
      // Each hierarchy's steps are listed once (a listing of a memory cgroup reads dozens of
      // control file names): nothing makes a step in a job whose end is being recorded.
      List<List<Path>> steps = new ArrayList<>(dirs.size());
      for (Path dir : dirs) {
        List<Path> here = fs.subdirs(dir, "step_");
        steps.add(here);
        for (Path step : here) {
          killAll(step);
        }
        killAll(dir);
      }
      // The user's level stays for the user's next job (creating and removing memory cgroups
      // costs the kernel milliseconds); shutdown() removes the empty ones.
      for (int h = 0; h < dirs.size(); h++) {
        for (Path step : steps.get(h)) {
          removeQuietly(step);
        }
        removeQuietly(dirs.get(h));
      }
    }
  }

  private final class Step implements StepScope {
    private final String stepId;
    private final List<Path> dirs;

    Step(String stepId, List<Path> dirs) {
      this.stepId = stepId;
      this.dirs = List.copyOf(dirs);
    }

    @Override
    public String stepId() {
      return stepId;
    }

    @Override
    public List<Path> procsFiles() {
      return dirs.stream().map(d -> d.resolve("cgroup.procs")).toList();
    }

    @Override
    public Set<Long> pids() {
      return CgroupBackend.this.pids(dirs.get(0));
    }

    @Override
    public CgroupUsage usage() {
      return CgroupBackend.this.usage(dirs);
    }

    @Override
    public long cacheBytes() {
      return CgroupBackend.this.cacheBytes(dirs);
    }

    @Override
    public void denyDevices(List<String> devices) throws IOException {
      deny(dirs, devices);
    }
  }

  Set<Long> pids(Path dir) {
    Set<Long> pids = new LinkedHashSet<>();
    fs.read(dir.resolve("cgroup.procs")).ifPresent(text -> {
      for (String line : text.split("\n")) {
        if (!line.isBlank()) {
          try {
            pids.add(Long.parseLong(line.strip()));
          } catch (NumberFormatException e) {
            // not a pid
          }
        }
      }
    });
    return pids;
  }

  /** SIGKILL to every process in the directory, until it is empty or the wait is over. */
  private void killAll(Path dir) {
    long deadline = System.nanoTime() + KILL_WAIT_MILLIS * 1_000_000;
    Set<Long> left = pids(dir);
    while (!left.isEmpty()) {
      for (long pid : left) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
      if (System.nanoTime() > deadline) {
        LOG.log(Level.WARNING, "processes " + left + " in " + dir + " survive SIGKILL");
        return;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      left = pids(dir);
    }
  }

  private void removeQuietly(Path dir) {
    try {
      fs.removeDir(dir);
    } catch (java.nio.file.NoSuchFileException gone) {
      // removed already (an earlier slurmd, or a step that went with its job)
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot remove cgroup " + dir + ": " + CgroupFs.reason(e));
    }
  }

  @Override
  public void shutdown() {
    synchronized (layout) {
      for (Path root : nodeRoots()) {
        for (Path uidDir : fs.subdirs(root, "uid_")) {
          if (fs.subdirs(uidDir, "job_").isEmpty()) {
            removeQuietly(uidDir);
          }
        }
        if (fs.subdirs(root, "uid_").isEmpty()) {
          try {
            fs.removeDir(root);
            // The cluster's level goes with its last node on this host.
            if (fs.subdirs(root.getParent(), "").isEmpty()) {
              fs.removeDir(root.getParent());
            }
          } catch (IOException busy) {
            // a process of ours still in it (v2: this daemon's own leaf), or another node of the
            // cluster made its directory meanwhile: the next daemon reuses it
          }
        }
      }
    }
  }

  /** Creates the node's top directory (and its cluster's) in one hierarchy. */
  Path nodeRoot(int hierarchy, Path parent, NodeCgroupName name) throws IOException {
    Path root = name.nodeDir(parent);
    for (int attempt = 0; ; attempt++) {
      Path cluster = name.clusterDir(parent);
      if (fs.mkdir(cluster)) {
        prepare(hierarchy, cluster, false);
      }
      try {
        if (fs.mkdir(root)) {
          prepare(hierarchy, root, false);
        }
        return root;
      } catch (java.nio.file.NoSuchFileException removed) {
        // the cluster's last other node on this host stopped just now and took the level along
        if (attempt > 0) {
          throw removed;
        }
      }
    }
  }
}

package org.corral.slurmd.launch;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.StepUsage;
import org.corral.slurmd.cgroup.CgroupUsage;
import org.corral.protocol.CpuList;
import org.corral.slurmd.cgroup.JobScope;
import org.corral.slurmd.cgroup.NoConfinement;
import org.corral.slurmd.cgroup.ResourceLimiter;
import org.corral.slurmd.cgroup.StepScope;
import org.corral.slurmd.usage.ProcReader;
import org.corral.slurmd.usage.StepUsageTracker;

/**
 * The batch step's confinement and usage: before the job's wrapper starts, the job's scope gets
 * its CPUs and memory limit and the batch step's scope is opened (the wrapper puts the job into
 * it); afterwards OOM kills are read and the scope removed. Usage is sampled from the step's
 * processes.
 */
public final class JobConfinement {
  static final String BATCH_STEP = "batch";
  private static final System.Logger LOG = System.getLogger("slurmd");
  private static final long MB = 1024L * 1024;

  private final ResourceLimiter limiter;
  private final CoreAssigner cores;
  private final ProcReader proc;
  private final String nodeName;
  private final Map<Integer, StepUsageTracker> batchUsage = new ConcurrentHashMap<>();
  /**
   * The scopes confine() made, until release(): a job's end reads and removes them without
   * looking them up again in the cgroup tree (a directory listing or two per hierarchy each).
   * Jobs re-adopted after a restart are looked up.
   */
  private final Map<Integer, JobScope> jobScopes = new ConcurrentHashMap<>();
  private final Map<Integer, StepScope> batchSteps = new ConcurrentHashMap<>();
  /** Scopes are removed off the path that reports a job's end; a job id launched again waits for it. */
  private final ExecutorService remover = Executors.newSingleThreadExecutor(
      r -> Thread.ofPlatform().name("cgroup-remover").daemon().unstarted(r));
  private final Map<Integer, Future<?>> removals = new ConcurrentHashMap<>();
  /** ConstrainDevices: the node's generic resources whose device files jobs not given them are denied. */
  private volatile org.corral.slurmd.gres.GresInventory devices;
  /** The node's generic resources: a job's CPUs are taken near its GPUs (gres.conf Cores=) first. */
  private volatile org.corral.slurmd.gres.GresInventory gres = org.corral.slurmd.gres.GresInventory.none();

  /**
   * @param nodeCpus the node's CPUs (slurm.conf CPUs=)
   * @param hostCpus the host CPUs this daemon may use
   */
  public JobConfinement(ResourceLimiter limiter, int nodeCpus, BitSet hostCpus, ProcReader proc, String nodeName) {
    this.limiter = limiter;
    this.cores = new CoreAssigner(nodeCpus, hostCpus);
    this.proc = proc;
    this.nodeName = nodeName;
  }

  /** The node's generic resources, for choosing a job's CPUs close to its GPUs. */
  public void gres(org.corral.slurmd.gres.GresInventory inventory) {
    this.gres = inventory;
  }

  /** The node's generic resources as last reported. */
  public org.corral.slurmd.gres.GresInventory gres() {
    return gres;
  }

  /** The node CPUs gres.conf's Cores= puts close to the job's generic resources here. */
  private BitSet closeCpus(JobInfo job) {
    var here = org.corral.protocol.Gres.on(job.getAllocationList(), nodeName);
    return here == null ? new BitSet() : gres.closeCores(here.getGresList());
  }

  /** The node CPUs the controller gave the job here; none for records from before it chose them. */
  private BitSet givenCpus(JobInfo job) {
    return org.corral.protocol.Gres.cpusOn(job.getAllocationList(), nodeName);
  }

  /** ConstrainDevices=yes: jobs and steps may open only the GRES device files they were given. */
  public void devices(org.corral.slurmd.gres.GresInventory inventory) {
    this.devices = inventory;
  }

  /**
   * Denies the job's scope the node's GRES devices not in its allocation here (nothing without
   * ConstrainDevices). Before any step scope exists, so every step inherits it.
   */
  public void constrainDevices(JobScope scope, JobInfo job) throws IOException {
    var inventory = devices;
    if (inventory == null) {
      return;
    }
    var here = org.corral.protocol.Gres.on(job.getAllocationList(), nodeName);
    scope.denyDevices(org.corral.slurmd.gres.DeviceRules.denied(inventory,
        here == null ? java.util.List.of() : here.getGresList()));
  }

  /** A step's scope: the job's GRES devices the step was not given are denied too. */
  public void constrainDevices(StepScope step, java.util.List<org.corral.protocol.msg.NodeAllocation> stepGres)
      throws IOException {
    var inventory = devices;
    if (inventory == null || stepGres.isEmpty()) {
      return;
    }
    var here = org.corral.protocol.Gres.on(stepGres, nodeName);
    step.denyDevices(org.corral.slurmd.gres.DeviceRules.denied(inventory,
        here == null ? java.util.List.of() : here.getGresList()));
  }

  /** No limits; usage from /proc. */
  public static JobConfinement none(String nodeName) {
    return new JobConfinement(new NoConfinement(), 1, new BitSet(), ProcReader.system(), nodeName);
  }

  /** Where process usage is read (/proc). */
  public ProcReader proc() {
    return proc;
  }

  public ResourceLimiter limiter() {
    return limiter;
  }

  /**
   * What confining a batch job gave: the cgroup files its process joins (none unconfined) and
   * the node CPUs it holds (CpuList form, "" unconfined), both for its launch file.
   */
  record Confined(List<Path> cgroupProcs, String cores) {
    static final Confined NONE = new Confined(List.of(), "");
  }

  /** Sets up the job's scope: the cgroup files its wrapper joins and its CPUs, for the launch file. */
  Confined confine(JobDirectory dir, LaunchBatchRequest request) throws IOException {
    JobInfo job = request.getJob();
    int jobId = job.getJobId();
    batchUsage.put(jobId, new StepUsageTracker(jobId, BATCH_STEP));
    if (!limiter.confines()) {
      return Confined.NONE;
    }
    awaitRemoval(jobId);
    int cpuCount = request.getCpusOnNode() > 0 ? request.getCpusOnNode() : Math.max(1, job.getNumCpus());
    BitSet nodeCpus = cores.claim(jobId, cpuCount, closeCpus(job), givenCpus(job));
    JobScope scope = limiter.limitJob(jobId, job.getUserId(), cores.hostCpus(nodeCpus), memoryBytes(request));
    constrainDevices(scope, job);
    StepScope step = scope.openStep(BATCH_STEP);
    jobScopes.put(jobId, scope);
    batchSteps.put(jobId, step);
    return new Confined(step.procsFiles(), CpuList.format(nodeCpus));
  }

  /**
   * The scope of a job on this node for launchers other than the batch one (an allocation's
   * steps): CPUs chosen as for batch jobs (the same ones again for a job that has some), limits
   * from cgroup.conf. Idempotent; pair with {@link #endJob(int)}.
   */
  public JobScope scopeFor(JobInfo job, int uid, int cpuCount, long memoryBytes) throws IOException {
    int jobId = job.getJobId();
    awaitRemoval(jobId);
    BitSet nodeCpus = cores.claim(jobId, cpuCount, closeCpus(job), givenCpus(job));
    return limiter.limitJob(jobId, uid, limiter.confines() ? cores.hostCpus(nodeCpus) : new BitSet(), memoryBytes);
  }

  /** Ends a job's scope made by {@link #scopeFor}: whether the OOM killer struck; processes left are killed. */
  public boolean endJob(int jobId) {
    cores.release(jobId);
    Optional<JobScope> scope = limiter.confines() ? limiter.findJob(jobId) : Optional.empty();
    if (scope.isEmpty()) {
      return false;
    }
    long kills = scope.get().oomKills();
    removeLater(jobId, scope.get());
    return kills > 0;
  }

  private void removeLater(int jobId, JobScope scope) {
    FutureTask<Void> removal = new FutureTask<>(scope::remove, null);
    removals.put(jobId, removal);
    try {
      remover.execute(() -> {
        removal.run();
        removals.remove(jobId, removal);
      });
    } catch (RejectedExecutionException e) {
      removal.run();
      removals.remove(jobId, removal);
    }
  }

  private void awaitRemoval(int jobId) throws IOException {
    Future<?> pending = removals.get(jobId);
    if (pending == null) {
      return;
    }
    try {
      pending.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the job's previous cgroup was removed");
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("the job's previous cgroup could not be removed: " + e, e);
    }
  }

  /** Waits for scopes being removed (daemon shutdown, tests). */
  public void awaitRemovals() {
    for (Future<?> pending : List.copyOf(removals.values())) {
      try {
        pending.get(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException e) {
        LOG.log(Level.WARNING, "removing a job's cgroup failed: " + e);
      }
    }
  }

  /** A job found in the spool after a restart keeps its CPUs and gets a usage record again. */
  void readopt(JobDirectory dir) {
    batchUsage.putIfAbsent(dir.jobId(), new StepUsageTracker(dir.jobId(), BATCH_STEP));
    dir.cores().ifPresent(text -> {
      try {
        cores.restore(dir.jobId(), CpuList.parse(text));
      } catch (IllegalArgumentException e) {
        LOG.log(Level.WARNING, "job " + dir.jobId() + ": unreadable cores file");
      }
    });
  }

  /** After the job ended: whether the OOM killer struck; the scope goes and the CPUs are free. */
  boolean release(JobDirectory dir) {
    int jobId = dir.jobId();
    batchUsage.remove(jobId);
    cores.release(jobId);
    batchSteps.remove(jobId);
    JobScope known = jobScopes.remove(jobId);
    Optional<JobScope> scope = !limiter.confines() ? Optional.empty()
        : known != null ? Optional.of(known) : limiter.findJob(jobId);
    if (scope.isEmpty()) {
      // Removed by an earlier slurmd that reported the end but never saw it acknowledged.
      return dir.readRootFile("oom").map(String::strip).filter(t -> !t.isEmpty() && !t.equals("0")).isPresent();
    }
    long kills = scope.get().oomKills();
    if (kills > 0) { // kept for a later slurmd that reports the end again (no file: none)
      try {
        dir.writeRootFile("oom", kills + "\n");
      } catch (IOException e) {
        LOG.log(Level.WARNING, "job " + jobId + ": cannot record its OOM count: " + e.getMessage());
      }
    }
    removeLater(jobId, scope.get());
    if (kills > 0) {
      LOG.log(Level.INFO, "job " + jobId + ": detected " + kills + " oom_kill event(s)");
    }
    return kills > 0;
  }

  /** Takes one sample of the job's batch step. */
  void sample(JobDirectory dir) {
    StepUsageTracker tracker = batchUsage.get(dir.jobId());
    if (tracker != null) {
      tracker.add(List.of(proc.sample(0, pids(dir))));
    }
  }

  /**
   * The batch step's usage over its life, once it has ended (for accounting): what the samples
   * saw, with the cgroup's exact CPU times where it counts them.
   */
  Optional<StepUsage> finalUsage(JobDirectory dir) {
    StepUsageTracker tracker = batchUsage.get(dir.jobId());
    if (tracker == null) {
      return Optional.empty();
    }
    CgroupUsage counted = step(dir.jobId()).map(StepScope::usage).orElse(CgroupUsage.UNKNOWN);
    StepUsage sampled = tracker.report(nodeName, counted, proc.cpuFrequencyKhz(), List.of());
    return Optional.of(dir.endUsage().map(end -> withEnd(sampled, end, counted.hasCpu())).orElse(sampled));
  }

  /**
   * The samples completed by what the supervisor saw at the end: a job shorter than the
   * sampling period still has its CPU time and largest resident set, as in Slurm.
   */
  static StepUsage withEnd(StepUsage sampled, JobDirectory.EndUsage end, boolean cgroupCpu) {
    StepUsage.Builder b = sampled.toBuilder();
    if (!cgroupCpu) {
      b.setUserCpuMs(Math.max(sampled.getUserCpuMs(), end.userCpuMs()))
          .setSysCpuMs(Math.max(sampled.getSysCpuMs(), end.sysCpuMs()));
    }
    long cpu = b.getUserCpuMs() + b.getSysCpuMs();
    b.setMinCpuMs(Math.max(sampled.getMinCpuMs(), cpu)).setAveCpuMs(Math.max(sampled.getAveCpuMs(), cpu));
    if (end.maxRssKb() > sampled.getMaxRssKb()) {
      b.setMaxRssKb(end.maxRssKb()).setMaxRssTask(0).setMaxRssNode(sampled.getMaxRssNode());
      if (sampled.getAveRssKb() == 0) {
        b.setAveRssKb(end.maxRssKb());
      }
    }
    return b.build();
  }

  /** The batch step's usage now (a fresh sample first), if the job runs here. */
  Optional<StepUsage> usage(JobDirectory dir) {
    StepUsageTracker tracker = batchUsage.get(dir.jobId());
    if (tracker == null) {
      return Optional.empty();
    }
    Set<Long> pids = pids(dir);
    tracker.add(List.of(proc.sample(0, pids)));
    CgroupUsage counted = step(dir.jobId()).map(StepScope::usage).orElse(CgroupUsage.UNKNOWN);
    return Optional.of(tracker.report(nodeName, counted, proc.cpuFrequencyKhz(),
        pids.stream().sorted(java.util.Comparator.reverseOrder()).toList()));
  }

  private Optional<StepScope> step(int jobId) {
    if (!limiter.confines()) {
      return Optional.empty();
    }
    StepScope known = batchSteps.get(jobId);
    if (known != null) {
      return Optional.of(known);
    }
    return limiter.findJob(jobId).flatMap(scope -> {
      try {
        return scope.steps().contains(BATCH_STEP) ? Optional.of(scope.openStep(BATCH_STEP)) : Optional.empty();
      } catch (IOException e) {
        return Optional.empty();
      }
    });
  }

  /** The step's processes: from its cgroup, or (unconfined) the job's session. */
  private Set<Long> pids(JobDirectory dir) {
    Optional<StepScope> step = step(dir.jobId());
    if (step.isPresent()) {
      return step.get().pids();
    }
    return dir.processGroup().stream().boxed().findFirst().map(proc::sessionMembers).orElse(Set.of());
  }

  /** The job's memory on this node, in bytes (0 = none asked). */
  private static long memoryBytes(LaunchBatchRequest request) {
    JobInfo job = request.getJob();
    long mb = request.getMemOnNodeMb();
    if (mb == 0 && job.getMemPerNodeMb() > 0) {
      mb = job.getMemPerNodeMb();
    } else if (mb == 0 && job.getMemPerCpuMb() > 0) {
      mb = job.getMemPerCpuMb() * Math.max(1, request.getCpusOnNode());
    }
    return mb * MB;
  }

  /** The host CPUs this process may run on (its affinity), or all online ones. */
  public static BitSet hostCpus() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return CpuList.parse(line.substring(line.indexOf(':') + 1));
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      // fall through
    }
    BitSet all = new BitSet();
    all.set(0, Runtime.getRuntime().availableProcessors());
    return all;
  }
}

package org.corral.slurmd.step;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import org.corral.protocol.StepIds;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.SignalTasksRequest;
import org.corral.protocol.msg.StepUsage;
import org.corral.slurmd.launch.JobConfinement;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.launch.NodeLauncher;

/**
 * The steps running on this node (srun's tasks), without a JVM or a supervisor process per
 * task: each task is a user process started through the shared user-launch wrapper and watched
 * by this daemon, which relays its I/O to srun and reports the node's share of the step to the
 * controller once all its tasks here have exited. Launch orders are idempotent per (job, step).
 * Unlike batch jobs, tasks do not outlive this daemon (see docs/compatibility.md).
 */
public final class StepManager implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmd");
  /** Ended steps remembered so that a repeated launch order is still ignored. */
  private static final int REMEMBERED_ENDED = 4096;

  private volatile StepContext context;
  private final ConcurrentMap<StepKey, NodeStep> steps = new ConcurrentHashMap<>();
  private final Set<StepKey> ended = Collections.newSetFromMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<StepKey, Boolean> eldest) {
      return size() > REMEMBERED_ENDED;
    }
  });
  private volatile boolean closed;

  /**
   * @param confPath the slurm.conf the tasks see as SLURM_CONF
   * @param killWait seconds between SIGTERM and SIGKILL when -K ends a step here
   */
  public StepManager(Path spoolDir, String nodeName, String confPath, Clock clock, int killWait,
      StepListener listener) throws IOException {
    this(spoolDir, nodeName, confPath, clock, killWait, listener, JobConfinement.none(nodeName));
  }

  /** @param confinement the node's job cgroups, shared with the batch launcher */
  public StepManager(Path spoolDir, String nodeName, String confPath, Clock clock, int killWait,
      StepListener listener, JobConfinement confinement) throws IOException {
    this(spoolDir, nodeName, confPath, clock, killWait, listener, confinement, List.of());
  }

  /** @param taskHooks the words that run TaskProlog/TaskEpilog around each task (as for batch scripts) */
  public StepManager(Path spoolDir, String nodeName, String confPath, Clock clock, int killWait,
      StepListener listener, JobConfinement confinement, List<String> taskHooks) throws IOException {
    this(spoolDir, nodeName, confPath, clock, killWait, listener, StepManager::jobCpusFromDaemon, confinement,
        taskHooks);
  }

  /** @param jobCpus the CPUs a job holds on this node (for --cpu-bind=cores) */
  StepManager(Path spoolDir, String nodeName, String confPath, Clock clock, int killWait, StepListener listener,
      Function<LaunchTasksRequest, List<Integer>> jobCpus) throws IOException {
    this(spoolDir, nodeName, confPath, clock, killWait, listener, jobCpus, JobConfinement.none(nodeName), List.of());
  }

  private StepManager(Path spoolDir, String nodeName, String confPath, Clock clock, int killWait,
      StepListener listener, Function<LaunchTasksRequest, List<Integer>> jobCpus, JobConfinement confinement,
      List<String> taskHooks) throws IOException {
    Path stepsDir = spoolDir.resolve("steps");
    StepSpool.clearLeftovers(stepsDir);
    this.context = new StepContext(nodeName, JobSupervisor.shortHostName(), confPath, stepsDir,
        NodeLauncher.start(spoolDir, nodeName), jobCpus, killWait, clock, UserDirectory.system(), listener, confinement,
        List.copyOf(taskHooks), org.corral.slurmd.launch.TaskPlugins.NONE);
  }

  /** --container and the plugins' task hooks, for every step launched from now on. */
  public void useTaskPlugins(org.corral.slurmd.launch.TaskPlugins plugins) {
    this.context = context.withPlugins(plugins);
  }

  /** Starts this node's tasks of a step, asynchronously; a repeat for the same step is ignored. */
  public void launch(LaunchTasksRequest request) {
    StepKey key = new StepKey(request.getJob().getJobId(), request.getStep().getStepId());
    NodeStep step = new NodeStep(key, request, context);
    synchronized (ended) {
      if (closed || ended.contains(key) || steps.putIfAbsent(key, step) != null) {
        return;
      }
    }
    LOG.log(Level.DEBUG, "step " + key + ": launching tasks " + request.getTaskIdsList());
    Thread.ofVirtual().name("step-" + key).start(() -> {
      try {
        step.run();
      } finally {
        synchronized (ended) {
          ended.add(key);
          steps.remove(key, step);
        }
      }
    });
  }

  /** Signal 0 terminates the step's tasks here (SIGTERM, SIGKILL after kill_wait_s); others are delivered. */
  public void signal(SignalTasksRequest request) {
    NodeStep step = steps.get(new StepKey(request.getJobId(), request.getStepId()));
    if (step == null) {
      return;
    }
    signal(step, request.getSignal(), request.getKillWaitS());
  }

  /**
   * Every step of the job here: signal 0 terminates them (the job ends), others are delivered.
   * When the job ends and no batch script of it runs here (an allocation), its cgroup goes too,
   * once its tasks had KillWait to end.
   */
  public void signalJob(int jobId, int signal, int killWaitSeconds, boolean batchRunsHere) {
    for (NodeStep step : steps.values()) {
      if (step.key().jobId() == jobId) {
        signal(step, signal, killWaitSeconds);
      }
    }
    if (signal == 0 && !batchRunsHere && context.confinement().limiter().confines()) {
      Thread.ofVirtual().start(() -> {
        try {
          Thread.sleep((killWaitSeconds + 1) * 1000L);
        } catch (InterruptedException e) {
          return;
        }
        context.confinement().endJob(jobId);
      });
    }
  }

  private static void signal(NodeStep step, int signal, int killWaitSeconds) {
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("not a signal number: " + signal);
    }
    if (signal == 0) {
      step.terminate(killWaitSeconds);
    } else {
      step.signal(signal);
    }
  }

  /** Usage of the job's steps running here (sstat); {@code step} "" = all of them. */
  public List<StepUsage> usage(int jobId, String step) {
    List<StepUsage> out = new ArrayList<>();
    for (NodeStep s : steps.values()) {
      if (s.key().jobId() == jobId
          && (step.isEmpty() || step.equals(StepIds.name(s.key().stepId())))) {
        s.usage().ifPresent(out::add);
      }
    }
    return out;
  }

  /** Jobs with steps running here. */
  public Set<Integer> runningJobs() {
    Set<Integer> jobs = new TreeSet<>();
    steps.keySet().forEach(k -> jobs.add(k.jobId()));
    return jobs;
  }

  /** Waits until the step has ended here (tests); true when it did within the timeout. */
  boolean awaitEnd(int jobId, int stepId, Duration timeout) throws InterruptedException {
    NodeStep step = steps.get(new StepKey(jobId, stepId));
    return step == null || step.await(timeout);
  }

  /**
   * Kills every task here: without this daemon nobody would relay their I/O or report their end.
   */
  @Override
  public void close() {
    closed = true;
    for (NodeStep step : steps.values()) {
      step.kill();
    }
    context.launcher().close();
  }

  /**
   * The host CPUs of the job here: those the controller chose (cpu_ids, node CPUs mapped onto the
   * CPUs this daemon may use, as its cgroup cpuset does), or for an older record its CPU count
   * taken in order from them.
   */
  private static List<Integer> jobCpusFromDaemon(LaunchTasksRequest request) {
    List<Integer> all = CpuBinding.daemonCpus();
    String node = request.getStep().getNodeNamesCount() > request.getNodeIndex()
        ? request.getStep().getNodeNames(request.getNodeIndex()) : "";
    NodeAllocation here = org.corral.protocol.Gres.on(request.getJob().getAllocationList(), node);
    java.util.BitSet given = org.corral.protocol.Gres.cpusOn(request.getJob().getAllocationList(), node);
    if (!given.isEmpty() && !all.isEmpty()) {
      return given.stream().mapToObj(i -> all.get(i % all.size())).distinct().sorted().toList();
    }
    int count = here != null ? here.getCpus() : all.size();
    return all.subList(0, Math.max(1, Math.min(all.size(), count)));
  }
}

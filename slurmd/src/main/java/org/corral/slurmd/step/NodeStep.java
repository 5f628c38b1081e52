package org.corral.slurmd.step;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoHello;
import org.corral.protocol.msg.IoLaunchFailed;
import org.corral.protocol.msg.IoTaskExit;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.StepFinishedRequest;
import org.corral.protocol.msg.StepUsage;
import org.corral.slurmd.cgroup.CgroupUsage;
import org.corral.slurmd.cgroup.StepScope;
import org.corral.slurmd.launch.ProcessGroupSignaller;
import org.corral.slurmd.usage.StepUsageTracker;
import org.corral.slurmd.usage.TaskSample;

/**
 * This node's share of one step, from the launch order to the end report: connects to srun,
 * starts the tasks, relays their I/O, sends each task's exit, then reports to the controller.
 * Frame order on the connection: IoHello; then, per task, its output in order and after all of
 * it its IoTaskExit (IoLaunchFailed instead when nothing could start); then the end of stream.
 */
final class NodeStep {
  private static final System.Logger LOG = System.getLogger("slurmd");
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
  private static final int LINGER_MILLIS = 10_000;

  private final StepKey key;
  private final LaunchTasksRequest request;
  private final StepContext context;
  private final Path dir;
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile List<RunningTask> tasks = List.of();
  private volatile StepScope scope;
  private final StepUsageTracker usage;
  /** Set by a terminate order: tasks not started yet never start. */
  private volatile boolean terminated;
  /** The kill wait of the terminate order that came while the tasks were starting. */
  private volatile int killWait;
  private volatile IoConnection io;
  private final AtomicBoolean reported = new AtomicBoolean();
  /** The step's PMI server here (--mpi=pmi2), null without one. */
  private volatile StepPmi pmi;

  NodeStep(StepKey key, LaunchTasksRequest request, StepContext context) {
    this.key = key;
    this.request = request;
    this.context = context;
    this.dir = context.stepsDir().resolve(StepSpool.dirName(key));
    this.usage = new StepUsageTracker(key.jobId(),
        StepIds.name(key.stepId()));
  }

  StepKey key() {
    return key;
  }

  boolean hasEnded() {
    return done.getCount() == 0;
  }

  /**
   * The step's cgroup inside its job's (made here for an allocation, shared with a batch job's):
   * the files each task's shell joins, as root, before it runs user code. Empty without cgroups.
   */
  private List<Path> confine(StepPlan plan) throws IOException {
    var confinement = context.confinement();
    if (!confinement.limiter().confines()) {
      return List.of();
    }
    String node = context.nodeName();
    var here = request.getJob().getAllocationList().stream().filter(a -> a.getNode().equals(node)).findFirst();
    int cpus = here.map(a -> a.getCpus()).orElse(1);
    long memBytes = here.map(a -> a.getMemMb()).orElse(0L) * 1024 * 1024;
    var job = confinement.scopeFor(request.getJob(), plan.uid(), cpus, memBytes);
    confinement.constrainDevices(job, request.getJob());
    scope = job.openStep(StepIds.name(key.stepId()));
    confinement.constrainDevices(scope, request.getStep().getGresList());
    return scope.procsFiles();
  }

  /** The step's usage here now (sstat): a fresh sample of its running tasks first. */
  Optional<StepUsage> usage() {
    List<RunningTask> running = tasks.stream().filter(t -> !t.hasEnded()).toList();
    if (running.isEmpty()) {
      return Optional.empty();
    }
    var proc = context.confinement().proc();
    List<TaskSample> samples = new ArrayList<>();
    List<Long> pids = new ArrayList<>();
    for (RunningTask t : running) {
      Set<Long> members = t.processGroup().stream().boxed().findFirst()
          .map(proc::sessionMembers).orElse(Set.of());
      samples.add(proc.sample(t.taskId(), members));
      pids.addAll(members);
    }
    usage.add(samples);
    var counted = scope != null ? scope.usage() : CgroupUsage.UNKNOWN;
    return Optional.of(usage.report(context.nodeName(), counted, proc.cpuFrequencyKhz(), pids));
  }

  /** Runs the step here to its end; called on a thread of its own. */
  void run() {
    try {
      runToEnd();
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "step " + key + " failed on this node", e);
      kill();
      report(ProcessGroupSignaller.SIGKILL, true, "slurmd error: " + e);
    } finally {
      IoConnection open = io;
      if (open != null) {
        open.close();
      }
      StepPmi serving = pmi;
      if (serving != null) {
        serving.close();
      }
      StepSpool.delete(dir);
      done.countDown();
    }
  }

  private void runToEnd() {
    var spec = request.getSpec();
    IoConnection io;
    try {
      io = IoConnection.open(spec.getIoHost(), spec.getIoPort(), CONNECT_TIMEOUT_MILLIS, IoHello.newBuilder()
          .setJobId(key.jobId()).setStepId(key.stepId()).setNodeIndex(request.getNodeIndex())
          .setNodeName(context.nodeName()).setIoKey(request.getIoKey()).addAllTaskIds(request.getTaskIdsList())
          .build());
      this.io = io;
    } catch (IOException | RuntimeException e) {
      String message = "cannot connect to srun at " + spec.getIoHost() + ":" + spec.getIoPort() + ": " + e.getMessage();
      LOG.log(Level.WARNING, "step " + key + ": " + message);
      report(0, true, message);
      return;
    }
    StepPlan plan;
    try {
      plan = StepPlan.of(request, context.nodeName(), context.hostName(), context.confPath(),
          context.jobCpus().apply(request), context.taskHooks(), context.confinement().gres());
      if (context.users().userName(plan.uid()).isEmpty()) {
        throw new IllegalArgumentException("user id " + Integer.toUnsignedString(plan.uid()) + " is unknown on "
            + context.nodeName());
      }
      var fileError = StepFiles.prepare(plan.uid(), plan.gid(), plan.umask(), plan.files());
      if (fileError.isPresent()) {
        throw new IllegalArgumentException(fileError.get());
      }
    } catch (IllegalArgumentException | IOException e) {
      failLaunch(io, e.getMessage());
      return;
    }
    List<Path> cgroupProcs;
    try {
      cgroupProcs = confine(plan);
    } catch (IOException e) {
      failLaunch(io, "cannot confine the step (" + context.confinement().limiter().name() + "): " + e.getMessage());
      return;
    }
    reportMissingWorkDir(io, plan);
    try {
      pmi = StepPmi.startIfAsked(request, dir, context.nodeName(), io, this::pmiAbort);
    } catch (IOException e) {
      failLaunch(io, e.getMessage());
      return;
    }
    Path pmiSocket = pmi == null ? null : pmi.socket();
    List<RunningTask> started = new ArrayList<>();
    try {
      for (StepPlan.TaskPlan task : plan.tasks()) {
        if (terminated) {
          break;
        }
        RunningTask running = new RunningTask(task, dir.resolve("task" + task.taskId()));
        running.start(context.launcher(), plan, context.nodeName(), io, cgroupProcs,
            l -> context.plugins().apply(l, context.taskHooks().size(), key.jobId(), task.taskId(),
                request.getSpec().getContainer(), request.getSpec().getPluginOptionsMap()), pmiSocket);
        started.add(running);
      }
    } catch (IOException e) {
      tasks = List.copyOf(started);
      kill();
      awaitAll(started, io, false);
      failLaunch(io, "cannot start the tasks: " + e.getMessage());
      return;
    }
    tasks = List.copyOf(started);
    if (terminated && started.size() < plan.tasks().size()) {
      kill();
      awaitAll(started, io, false);
      failLaunch(io, "the step was cancelled before its tasks started");
      return;
    }
    if (terminated) {
      terminate(killWait);
    }
    io.startReading("io-" + key + "-" + context.nodeName(), this::fromSrun);
    int status = awaitAll(started, io, true);
    io.finish(LINGER_MILLIS);
    report(status, false, "");
  }

  /**
   * The step daemon's line about a work directory it cannot enter, once per node, on the first
   * task's stderr as in Slurm 22.05 (each task adds its own line; it then runs in /tmp).
   */
  private void reportMissingWorkDir(IoConnection io, StepPlan plan) {
    Path work = Path.of(plan.workDir());
    String why = !Files.exists(work) ? "No such file or directory"
        : !Files.isDirectory(work) ? "Not a directory" : null;
    if (why != null) {
      String line = "slurmstepd-" + context.nodeName() + ": error: couldn't chdir to `" + plan.workDir() + "': " + why
          + ": going to /tmp instead\n";
      io.send(IoFrame.newBuilder().setStderr(IoData.newBuilder().setTask(plan.tasks().get(0).taskId())
          .setData(ByteString.copyFromUtf8(line))).build());
    }
  }

  /** Waits for every task, sending each one's exit as it comes; returns the highest status. */
  private int awaitAll(List<RunningTask> started, IoConnection io, boolean sendExits) {
    AtomicInteger highest = new AtomicInteger();
    List<Thread> waiters = new ArrayList<>();
    for (RunningTask task : started) {
      waiters.add(Thread.ofVirtual().name("wait-" + key + "." + task.taskId()).start(() -> {
        try {
          int status = task.awaitExit();
          highest.accumulateAndGet(status, Math::max);
          if (sendExits) {
            io.send(IoFrame.newBuilder().setTaskExit(IoTaskExit.newBuilder().setTask(task.taskId()).setStatus(status))
                .build());
          }
          if (status != 0 && request.getSpec().getKillOnBadExit()) {
            terminate(context.killWait());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    for (Thread waiter : waiters) {
      try {
        waiter.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return highest.get();
      }
    }
    return highest.get();
  }

  private void failLaunch(IoConnection io, String message) {
    LOG.log(Level.INFO, "step " + key + ": launch failed: " + message);
    io.send(IoFrame.newBuilder().setLaunchFailed(IoLaunchFailed.newBuilder().setMessage(message)
        .addAllTaskIds(request.getTaskIdsList())).build());
    io.finish(LINGER_MILLIS);
    report(0, true, message);
  }

  /** A frame from srun: stdin for a task (or all here), its end, or a signal for all tasks. */
  private void fromSrun(IoFrame frame) {
    try {
      switch (frame.getBodyCase()) {
        case STDIN -> {
          byte[] data = frame.getStdin().getData().toByteArray();
          for (RunningTask task : tasks) {
            if (frame.getStdin().getTask() < 0 || frame.getStdin().getTask() == task.taskId()) {
              task.stdin(data);
            }
          }
        }
        case STDIN_EOF -> {
          for (RunningTask task : tasks) {
            if (frame.getStdinEof().getTask() < 0 || frame.getStdinEof().getTask() == task.taskId()) {
              task.stdinEof();
            }
          }
        }
        case SIGNAL -> signal(frame.getSignal().getSignal());
        case PMI_FENCE -> {
          StepPmi serving = pmi;
          if (serving != null) {
            serving.fenceDone(frame.getPmiFence());
          }
        }
        default -> LOG.log(Level.DEBUG, "step " + key + ": ignored frame from srun: " + frame.getBodyCase());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A task here called PMI abort: srun is told, and cancels the step as Slurm's does. */
  private void pmiAbort(int task, int exitCode, String message) {
    LOG.log(Level.INFO, "step " + key + ": task " + task + " called PMI abort (exit code " + exitCode
        + (message.isEmpty() ? "" : ": " + message) + ")");
    IoConnection open = io;
    if (open != null) {
      open.send(IoFrame.newBuilder().setPmiAbort(org.corral.protocol.msg.PmiAbort.newBuilder().setTask(task)
          .setExitCode(exitCode).setMessage(message)).build());
    }
  }

  /** Delivers a signal (1-64) to every task here, without waiting. */
  void signal(int signal) {
    if (signal < 1 || signal > 64) {
      return;
    }
    for (RunningTask task : tasks) {
      Thread.ofVirtual().name("signal-" + key).start(() -> task.signal(signal));
    }
  }

  /** SIGCONT and SIGTERM now, SIGKILL after killWait seconds to what still runs. Idempotent. */
  void terminate(int killWaitSeconds) {
    killWait = killWaitSeconds;
    terminated = true;
    for (RunningTask task : tasks) {
      Thread.ofVirtual().name("terminate-" + key).start(() -> {
        task.signal(ProcessGroupSignaller.SIGCONT, ProcessGroupSignaller.SIGTERM);
        try {
          Thread.sleep(Math.max(0, killWaitSeconds) * 1000L);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        task.signal(ProcessGroupSignaller.SIGKILL);
      });
    }
  }

  /** SIGKILL to every task here, now (this daemon is stopping, or the launch failed half-way). */
  void kill() {
    terminated = true;
    for (RunningTask task : tasks) {
      task.signal(ProcessGroupSignaller.SIGKILL);
    }
  }

  /** Blocks until the step has ended here (tests, shutdown). */
  boolean await(java.time.Duration timeout) throws InterruptedException {
    return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The step's usage here over its life: the samples, completed by what each task's supervisor
   * saw at its end (getrusage), so a step shorter than the sampling period is still counted.
   */
  private StepUsage finalUsage() {
    long user = 0;
    long sys = 0;
    List<TaskSample> ends = new ArrayList<>();
    for (RunningTask t : tasks) {
      Optional<org.corral.slurmd.launch.JobDirectory.EndUsage> end = t.endUsage();
      if (end.isPresent()) {
        user += end.get().userCpuMs();
        sys += end.get().sysCpuMs();
        ends.add(new TaskSample(t.taskId(), Math.max(0, end.get().maxRssKb()), 0, 0,
            end.get().userCpuMs() + end.get().sysCpuMs(), 0, 0));
      }
    }
    usage.add(ends);
    var counted = scope != null ? scope.usage() : CgroupUsage.UNKNOWN;
    StepUsage u = usage.report(context.nodeName(), counted, context.confinement().proc().cpuFrequencyKhz(), List.of());
    return counted.hasCpu() ? u : u.toBuilder().setUserCpuMs(Math.max(u.getUserCpuMs(), user))
        .setSysCpuMs(Math.max(u.getSysCpuMs(), sys)).build();
  }

  private void report(int status, boolean launchFailed, String message) {
    if (!reported.compareAndSet(false, true)) {
      return;
    }
    StepSpool.delete(dir); // every task here has ended: nothing left to signal
    StepFinishedRequest report = StepFinishedRequest.newBuilder().setJobId(key.jobId()).setStepId(key.stepId())
        .setNodeName(context.nodeName()).setExitStatus(status).setEndTime(context.clock().instant().getEpochSecond())
        .setLaunchFailed(launchFailed).setMessage(message).setUsage(finalUsage()).build();
    try {
      context.listener().finished(report);
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "step listener failed for " + key, e);
    }
  }
}

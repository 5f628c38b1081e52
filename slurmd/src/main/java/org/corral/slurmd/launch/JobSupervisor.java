package org.corral.slurmd.launch;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.SignalScope;
import org.corral.protocol.msg.StepUsage;

/**
 * Runs batch jobs on this node as their users, without a JVM or an exec chain per job: the
 * node's launcher ({@link NodeLauncher}) forks each job as its user (in a session of its own)
 * and, as the job's supervisor, records its pid and final status in the job's spool directory;
 * it outlives slurmd for as long as it has jobs. Ends arrive from the launcher as
 * they happen; every job is also polled (its status file, its supervisor's liveness), which is
 * how jobs found in the spool after a restart ({@link #recover()}) are watched. Each end is
 * reported once per JVM to the {@link JobListener}; the spool directory stays until
 * {@link #forget(int)}, so an end the controller never acknowledged is reported again by the
 * next slurmd.
 */
public final class JobSupervisor implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(JobSupervisor.class.getName());
  private static final long POLL_MILLIS = 200;
  /** Jobs started here report their end themselves: they are polled only every fifth round. */
  private static final int LAUNCHED_POLL_ROUNDS = 5;
  /** A launch request whose supervisor has not recorded itself by then was lost with its launcher. */
  private static final long UNSTARTED_MILLIS = 60_000;
  /** A signal waits up to 500 x 20 ms for a just-launched job's pid to be recorded. */
  private static final int PID_RETRIES = 500;
  private static final long PID_RETRY_MILLIS = 20;

  private final Path spoolDir;
  private final String nodeName;
  private final Clock clock;
  private final JobListener listener;
  private final String hostName;
  private final ConcurrentMap<Integer, TrackedJob> jobs = new ConcurrentHashMap<>();
  /** Jobs whose script ended and whose Epilog runs: still the node's until it is done. */
  private final Set<Integer> inEpilog = ConcurrentHashMap.newKeySet();
  private final LaunchHooks hooks;
  /** How signals reach a job's group; a seam so that tests can play processes that survive SIGKILL. */
  private volatile GroupSignaller signaller = ProcessGroupSignaller::signal;

  /** Sends a signal to a process group; true when delivered. */
  @FunctionalInterface
  interface GroupSignaller {
    boolean signal(long processGroup, int signal) throws IOException;
  }
  private final ScheduledExecutorService timers;
  private final NodeLauncher launcher;
  private final SpoolRecycler recycler;
  private int pollRound;
  private final JobConfinement confinement;
  private volatile boolean closed;

  /** A supervisor that confines nothing and samples usage every 30 s. */
  public JobSupervisor(Path spoolDir, String nodeName, Clock clock, JobListener listener) throws IOException {
    this(spoolDir, nodeName, clock, listener, JobConfinement.none(nodeName), 30);
  }

  /** A supervisor that confines nothing, with hooks around each job. */
  public JobSupervisor(Path spoolDir, String nodeName, Clock clock, JobListener listener,
      LaunchHooks hooks) throws IOException {
    this(spoolDir, nodeName, clock, listener, JobConfinement.none(nodeName), 30, hooks);
  }

  /**
   * @param confinement the jobs' cgroups and usage records
   * @param sampleSeconds JobAcctGatherFrequency's task interval; 0 = sample only when asked
   */
  public JobSupervisor(Path spoolDir, String nodeName, Clock clock, JobListener listener,
      JobConfinement confinement, int sampleSeconds) throws IOException {
    this(spoolDir, nodeName, clock, listener, confinement, sampleSeconds, LaunchHooks.NONE);
  }

  private volatile TaskPlugins plugins = TaskPlugins.NONE;

  /** --container and the plugins' task hooks, for every job launched from now on. */
  public void useTaskPlugins(TaskPlugins plugins) {
    this.plugins = plugins;
  }

  /** @param hooks the Prolog, Epilog, task hooks and kill checks to run around each job */
  public JobSupervisor(Path spoolDir, String nodeName, Clock clock, JobListener listener,
      JobConfinement confinement, int sampleSeconds, LaunchHooks hooks) throws IOException {
    this.hooks = hooks;
    if (!spoolDir.isAbsolute() || spoolDir.toString().contains("\n")) {
      // A launch request is a line.
      throw new IllegalArgumentException("spool directory must be an absolute path without newlines: " + spoolDir);
    }
    this.spoolDir = spoolDir;
    this.nodeName = nodeName;
    this.clock = clock;
    this.listener = listener;
    this.confinement = confinement;
    this.hostName = shortHostName();
    Files.createDirectories(spoolDir);
    Files.setPosixFilePermissions(spoolDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    this.recycler = new SpoolRecycler(spoolDir);
    this.launcher = NodeLauncher.start(spoolDir, nodeName);
    this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "job-supervisor-" + nodeName);
      thread.setDaemon(true);
      return thread;
    });
    timers.scheduleWithFixedDelay(this::pollJobs, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
    if (sampleSeconds > 0) {
      timers.scheduleWithFixedDelay(this::sampleUsage, sampleSeconds, sampleSeconds, TimeUnit.SECONDS);
    }
  }

  /** The jobs' cgroups and usage records, shared with launchers of other steps. */
  public JobConfinement confinement() {
    return confinement;
  }

  /**
   * The batch step's usage now, if the job runs here (sstat). The job is sampled first, so the
   * answer is never older than the call.
   */
  public Optional<org.corral.protocol.msg.StepUsage> batchUsage(int jobId) {
    TrackedJob job = jobs.get(jobId);
    if (job == null || job.hasEnded() || job.dir().hasEnded()) {
      return Optional.empty();
    }
    return confinement.usage(job.dir());
  }

  private void sampleUsage() {
    try {
      for (TrackedJob job : jobs.values()) {
        if (!job.hasEnded()) {
          confinement.sample(job.dir());
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "sampling job usage failed", e);
    }
  }

  /**
   * Starts the job's batch script. A repeated request for a job already here is ignored. Never
   * throws for a job that cannot start: that is reported to the listener with launchFailed.
   */
  public void launch(LaunchBatchRequest request) throws IOException {
    int jobId = request.getJob().getJobId();
    LaunchPlan plan;
    try {
      plan = LaunchPlan.of(request, nodeName, hostName);
    } catch (IllegalArgumentException e) {
      report(jobId, JobEnd.failed(0, now(), e.getMessage()), NodeTrouble.NONE, null);
      return;
    }
    JobDirectory dir = JobDirectory.in(spoolDir, jobId);
    TrackedJob job = new TrackedJob(dir, false);
    if (closed || jobs.putIfAbsent(jobId, job) != null) {
      return;
    }
    try {
      if (!recycler.create(dir)) {
        jobs.remove(jobId, job); // launched by an earlier slurmd: recover() adopts it
        return;
      }
      dir.writeScript(plan);
    } catch (IOException | RuntimeException e) {
      finish(job, JobEnd.failed(0, now(), "cannot write the job's files to the spool: " + e.getMessage()));
      return;
    }
    if (!hooks.hasProlog()) {
      start(job, request, plan, dir);
      return;
    }
    // The Prolog may take a while: the controller's launch order is answered meanwhile.
    Thread.ofVirtual().name("prolog-" + jobId).start(() -> {
      if (hooks.prolog(request, dir.path())) {
        start(job, request, plan, dir);
      } else if (job.markEnded()) {
        report(jobId, JobEnd.failed(0, now(), "prolog failed"), NodeTrouble.PROLOG_FAILED, null);
      }
    });
  }

  private void start(TrackedJob job, LaunchBatchRequest request, LaunchPlan plan, JobDirectory dir) {
    int jobId = plan.jobId();
    if (closed || job.hasEnded()) {
      return;
    }
    if (job.terminated()) { // cancelled while its Prolog ran: the script never starts
      finish(job, new JobEnd(ProcessGroupSignaller.SIGKILL, now(), false, ""));
      return;
    }
    JobConfinement.Confined confined;
    try {
      confined = confinement.confine(dir, request);
    } catch (IOException | RuntimeException e) {
      finish(job, JobEnd.failed(0, now(), "cannot confine the job (" + confinement.limiter().name() + "): "
          + e.getMessage()));
      return;
    }
    try {
      List<String> prefix = hooks.scriptPrefix();
      dir.writeLaunch(plan, prefix, nodeName, confined, l -> plugins.apply(l, prefix.size(), jobId, -1,
          request.getSpec().getContainer(), request.getSpec().getPluginOptionsMap()));
    } catch (IOException | RuntimeException e) {
      finish(job, JobEnd.failed(0, now(), "cannot write the job's files to the spool: " + e.getMessage()));
      return;
    }
    try {
      job.launched(System.nanoTime());
      launcher.launch(dir.path(), plan.uid(), () -> collect(job));
    } catch (IOException e) {
      finish(job, JobEnd.failed(0, now(), "cannot start the job: " + e.getMessage()));
    }
  }

  /**
   * Signals the job's whole process group (not its wrapper). Signal 0 terminates: SIGCONT and
   * SIGTERM now, SIGKILL after killWaitSeconds if the job is still running. Unknown or ended
   * jobs are ignored. Asynchronous: a job launched a moment ago gets it once its pid is known.
   */
  public void signal(int jobId, int signal, int killWaitSeconds) {
    signal(jobId, signal, killWaitSeconds, SignalScope.SIGNAL_ALL);
  }

  /**
   * The same for a signal meant for part of the job: the batch shell alone (scancel --batch,
   * --signal=B:), or its steps (scancel -s without --batch/--full, --signal without B:), which a
   * batch job's own processes are not part of, as in Slurm. Signal 0 always ends the whole job.
   */
  public void signal(int jobId, int signal, int killWaitSeconds, SignalScope scope) {
    if (signal != 0 && scope == SignalScope.SIGNAL_STEPS) {
      LOG.log(Level.DEBUG, "job " + jobId + ": signal " + signal + " is for steps; the batch step is not signalled");
      return;
    }
    if (signal != 0 && scope == SignalScope.SIGNAL_BATCH_SHELL) {
      TrackedJob job = jobs.get(jobId);
      if (job != null && !job.hasEnded() && !closed) {
        schedule(() -> deliverToShell(job, signal, PID_RETRIES), 0);
      }
      return;
    }
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("not a signal number: " + signal);
    }
    TrackedJob job = jobs.get(jobId);
    if (job == null || job.hasEnded() || closed) {
      return;
    }
    if (signal != 0) {
      schedule(() -> deliver(job, new int[] {signal}, PID_RETRIES), 0);
      return;
    }
    job.terminate();
    schedule(() -> deliver(job, new int[] {ProcessGroupSignaller.SIGCONT, ProcessGroupSignaller.SIGTERM}, PID_RETRIES), 0);
    schedule(() -> deliver(job, new int[] {ProcessGroupSignaller.SIGKILL}, PID_RETRIES),
        TimeUnit.SECONDS.toMillis(Math.max(0, killWaitSeconds)));
    if (hooks.unkillableTimeoutSeconds() > 0) {
      schedule(() -> checkKilled(job),
          TimeUnit.SECONDS.toMillis(Math.max(0, killWaitSeconds) + hooks.unkillableTimeoutSeconds()));
    }
  }

  /**
   * UnkillableStepTimeout after SIGKILL: processes still there (stuck in the kernel) make the
   * job end here and now, reported with KILL_FAILED so that the controller drains the node.
   */
  private void checkKilled(TrackedJob job) {
    if (job.hasEnded() || job.dir().hasEnded()) {
      return;
    }
    OptionalLong group = job.dir().processGroup();
    if (group.isPresent() && hooks.groupAlive(group.getAsLong())) {
      LOG.log(Level.ERROR, "job " + job.dir().jobId() + ": processes survived SIGKILL for "
          + hooks.unkillableTimeoutSeconds() + " s; the node is drained (Kill task failed)");
      if (job.markEnded()) {
        report(job.dir().jobId(), new JobEnd(ProcessGroupSignaller.SIGKILL, now(), false,
            "Kill task failed"), NodeTrouble.KILL_FAILED, null);
      }
    }
  }

  /** Replaces how signals are sent (tests only). */
  void useSignaller(GroupSignaller replacement) {
    this.signaller = replacement;
  }

  /** Jobs launched or re-adopted here whose end has not been seen yet. */
  public Set<Integer> runningJobs() {
    Set<Integer> running = new TreeSet<>();
    jobs.forEach((id, job) -> {
      if (!job.hasEnded()) {
        running.add(id);
      }
    });
    running.addAll(inEpilog);
    return running;
  }

  /** The jobs that have a directory in the spool: running, or ended and not yet acknowledged. */
  public Set<Integer> spooledJobs() {
    try {
      return Set.copyOf(JobDirectory.jobIds(spoolDir));
    } catch (IOException e) {
      LOG.log(Level.ERROR, "cannot read the spool " + spoolDir, e);
      return Set.of();
    }
  }

  /**
   * After a slurmd restart: re-adopts the jobs whose wrappers still run, and reports those that
   * ended meanwhile, or whose wrapper vanished without a status (their processes are killed).
   */
  public void recover() {
    List<Integer> ids;
    try {
      ids = JobDirectory.jobIds(spoolDir);
    } catch (IOException e) {
      LOG.log(Level.ERROR, "cannot read the spool " + spoolDir, e);
      return;
    }
    for (int id : ids) {
      TrackedJob job = new TrackedJob(JobDirectory.in(spoolDir, id), true);
      if (jobs.putIfAbsent(id, job) != null) {
        continue;
      }
      confinement.readopt(job.dir());
      if (!supervisorRunning(job) || job.dir().hasEnded()) {
        collect(job);
      }
    }
  }

  /**
   * Takes an ended job's directory out of the spool (its end was acknowledged), recycled for a
   * later job. Running jobs are kept.
   */
  public void forget(int jobId) {
    TrackedJob job = jobs.get(jobId);
    if (job != null && !job.hasEnded()) {
      LOG.log(Level.WARNING, "job " + jobId + " is still running; its spool directory stays");
      return;
    }
    JobDirectory dir = job != null ? job.dir() : JobDirectory.in(spoolDir, jobId);
    if (job == null && dir.exists() && !dir.hasEnded()) {
      return; // not adopted (yet): it may be running
    }
    try {
      recycler.recycle(dir);
      if (job != null) {
        jobs.remove(jobId, job);
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot remove " + dir.path(), e);
    }
  }

  /** Stops watching and reporting. Running jobs keep running, to be re-adopted by the next slurmd. */
  @Override
  public void close() {
    closed = true;
    timers.shutdownNow();
    launcher.close();
  }

  /** Sends signals to the job's process group once its pid is known, unless it has ended. */
  private void deliver(TrackedJob job, int[] signals, int retriesLeft) {
    if (job.hasEnded() || job.dir().hasEnded()) {
      return;
    }
    OptionalLong group = job.dir().processGroup();
    if (group.isEmpty()) {
      if (retriesLeft > 0) {
        schedule(() -> deliver(job, signals, retriesLeft - 1), PID_RETRY_MILLIS);
      } else {
        LOG.log(Level.WARNING, "job " + job.dir().jobId() + ": no pid recorded; signal not delivered");
      }
      return;
    }
    try {
      for (int signal : signals) {
        signaller.signal(group.getAsLong(), signal);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "job " + job.dir().jobId() + ": cannot signal process group " + group.getAsLong(), e);
    }
  }

  private void deliverToShell(TrackedJob job, int signal, int retriesLeft) {
    if (job.hasEnded() || job.dir().hasEnded()) {
      return;
    }
    OptionalLong shell = job.dir().processGroup(); // the leader of the group is the batch shell
    if (shell.isEmpty()) {
      if (retriesLeft > 0) {
        schedule(() -> deliverToShell(job, signal, retriesLeft - 1), PID_RETRY_MILLIS);
      }
      return;
    }
    try {
      ProcessGroupSignaller.signalProcess(shell.getAsLong(), signal);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "job " + job.dir().jobId() + ": cannot signal its batch shell", e);
    }
  }

  /**
   * Adopted jobs are watched by polling: their status file or their supervisor's death tells.
   * Jobs started here are checked the same way, less often, in case a report was lost (a
   * supervisor killed before it could write one).
   */
  private void pollJobs() {
    boolean all = ++pollRound % LAUNCHED_POLL_ROUNDS == 0;
    try {
      for (TrackedJob job : jobs.values()) {
        if (!job.hasEnded() && (job.adopted() || (all && job.launched()))
            && (job.dir().hasEnded() || !supervisorRunning(job))) {
          collect(job);
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "polling jobs failed", e);
    }
  }

  /**
   * Whether the job's supervisor still runs. One that has not recorded itself yet counts as
   * running for a while after the launch request (never, for a job found in the spool).
   */
  private boolean supervisorRunning(TrackedJob job) {
    return switch (job.dir().supervisor()) {
      case RUNNING -> true;
      case GONE -> false;
      case UNRECORDED -> !job.adopted()
          && System.nanoTime() - job.launchedAtNanos() < TimeUnit.MILLISECONDS.toNanos(UNSTARTED_MILLIS);
    };
  }

  /** The wrapper has exited (or vanished): reads how the job ended and reports it. */
  private void collect(TrackedJob job) {
    if (job.hasEnded() || closed) {
      return;
    }
    JobEnd end;
    try {
      end = job.dir().end().orElse(null);
    } catch (IOException e) {
      end = null;
    }
    if (end == null) {
      // The wrapper died without recording a status (killed, or the node lost it): make sure
      // nothing of the job survives, and report it as killed.
      job.dir().processGroup().ifPresent(this::killQuietly);
      end = new JobEnd(ProcessGroupSignaller.SIGKILL, now(), false,
          "the job's supervisor ended without recording the job's status");
    }
    finish(job, end);
  }

  private void finish(TrackedJob job, JobEnd end) {
    if (!job.markEnded()) {
      return;
    }
    int jobId = job.dir().jobId();
    StepUsage usage = confinement.finalUsage(job.dir()).orElse(null);
    boolean oom;
    try {
      oom = confinement.release(job.dir());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "job " + jobId + ": releasing its cgroup failed", e);
      oom = false;
    }
    JobEnd ended = end.withOutOfMemory(oom);
    if (!hooks.hasEpilog() || ended.launchFailed()) {
      report(jobId, ended, NodeTrouble.NONE, usage);
      return;
    }
    inEpilog.add(jobId);
    Thread.ofVirtual().name("epilog-" + jobId).start(() -> {
      try {
        if (!closed) {
          listener.ending(jobId, ended.exitStatus(), ended.endTimeEpochSec());
        }
        boolean ok = hooks.epilog(jobId, job.dir().path(), ended.exitStatus());
        report(jobId, ended, ok ? NodeTrouble.NONE : NodeTrouble.EPILOG_FAILED, usage);
      } finally {
        inEpilog.remove(jobId);
      }
    });
  }

  private void report(int jobId, JobEnd end, NodeTrouble trouble, StepUsage usage) {
    if (closed) {
      return;
    }
    try {
      listener.finished(jobId, end.exitStatus(), end.endTimeEpochSec(), end.launchFailed(),
          end.message(), end.outOfMemory(), trouble, usage);
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "job listener failed for job " + jobId, e);
    }
  }

  private void killQuietly(long processGroup) {
    try {
      ProcessGroupSignaller.signal(processGroup, ProcessGroupSignaller.SIGKILL);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "cannot kill process group " + processGroup, e);
    }
  }

  private void schedule(Runnable task, long delayMillis) {
    try {
      timers.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }

  /** %N in output patterns: the host's name up to its first dot, as Slurm writes it. */
  public static String shortHostName() {
    String name;
    try {
      name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      try {
        name = InetAddress.getLocalHost().getHostName();
      } catch (IOException unknown) {
        name = "localhost";
      }
    }
    int dot = name.indexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}

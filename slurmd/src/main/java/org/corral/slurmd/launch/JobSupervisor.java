package org.corral.slurmd.launch;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;

/**
 * Runs batch jobs on this node. Each job runs under the job shell (job-shell.sh, no JVM per
 * job), started detached so it outlives this daemon; what it records in the job's spool lets a
 * restarted daemon re-adopt the job. Launches are idempotent per job id; every job's end is
 * reported once per daemon life, and its spool is kept until {@link #forget} (the controller
 * has acknowledged the end).
 */
public final class JobSupervisor implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmd");
  private static final String SHELL = "job-shell.sh";

  private final Path spool;
  private final String node;
  private final Clock clock;
  private final JobListener listener;
  private final String confPath;
  private final Path shell;
  private final Map<Integer, ProcessHandle> running = new ConcurrentHashMap<>();
  private final Set<Integer> reported = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("job-timer").daemon().unstarted(r));

  public JobSupervisor(Path spoolDir, String nodeName, Clock clock, JobListener listener)
      throws IOException {
    this(spoolDir, nodeName, clock, listener, null);
  }

  /** @param confPath the slurm.conf path jobs see as SLURM_CONF, or null */
  public JobSupervisor(Path spoolDir, String nodeName, Clock clock, JobListener listener,
      String confPath) throws IOException {
    this.spool = spoolDir;
    this.node = nodeName;
    this.clock = clock;
    this.listener = listener;
    this.confPath = confPath;
    Files.createDirectories(spoolDir);
    Files.setPosixFilePermissions(spoolDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    this.shell = spoolDir.resolve(SHELL);
    try (InputStream in = JobSupervisor.class.getResourceAsStream(SHELL)) {
      Path tmp = spoolDir.resolve(SHELL + ".tmp");
      Files.write(tmp, in.readAllBytes());
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.move(tmp, shell, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
  }

  public void launch(LaunchBatchRequest req) throws IOException {
    int id = req.getJob().getJobId();
    JobSpool js = new JobSpool(spool, id);
    synchronized (this) {
      if (running.containsKey(id) || js.exists()) {
        return; // a repeated order: the job is already here
      }
      js.create();
    }
    try {
      Process wrapper = start(req, js);
      Files.writeString(js.dir.resolve(JobSpool.WRAPPER), wrapper.pid() + "\n");
      watch(id, wrapper.toHandle());
      LOG.log(Level.INFO, "launched batch job " + id + " for uid " + req.getJob().getUserId());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.ERROR, "launch of job " + id + " failed: " + e.getMessage());
      report(id, 1 << 8, true, "launch failed: " + e.getMessage());
    }
  }

  private Process start(LaunchBatchRequest req, JobSpool js) throws IOException {
    var job = req.getJob();
    JobSpec spec = req.getSpec();
    js.writePrivate(JobSpool.REQUEST, req.toByteArray());
    Path script = js.dir.resolve(JobSpool.SCRIPT);
    Files.writeString(script, spec.getScript(), StandardCharsets.UTF_8);
    Files.setAttribute(script, "unix:uid", job.getUserId());
    Files.setAttribute(script, "unix:gid", job.getGroupId());
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("r-x------"));
    Map<String, String> env = JobEnvironment.of(req, node, confPath);
    js.writePrivate(JobSpool.ENVIRONMENT, JobEnvironment.exportLines(env).getBytes(StandardCharsets.UTF_8));

    String out = OutputPattern.resolve(spec.getStdOut(), job, node);
    String err = spec.getStdErr().isEmpty() ? out : OutputPattern.resolve(spec.getStdErr(), job, node);
    String in = spec.getStdIn().isEmpty() ? "/dev/null" : OutputPattern.resolve(spec.getStdIn(), job, node);
    List<String> cmd = new ArrayList<>(List.of("setsid", "/bin/sh", shell.toString(),
        js.dir.toString(), String.valueOf(job.getUserId()), String.valueOf(job.getGroupId()),
        job.getWorkDir(), out, err, in, "append".equals(spec.getOpenMode()) ? "append" : "truncate",
        script.toString()));
    cmd.addAll(spec.getArgvList());
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().clear(); // the user's environment must never reach a root process
    pb.environment().put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    return pb.start();
  }

  private void watch(int id, ProcessHandle wrapper) {
    running.put(id, wrapper);
    wrapper.onExit().thenRun(() -> ended(id));
  }

  private void ended(int id) {
    running.remove(id);
    JobSpool js = new JobSpool(spool, id);
    OptionalInt status = js.exitStatus();
    if (status.isPresent()) {
      report(id, waitStatus(status.getAsInt()), false, "");
    } else {
      report(id, 9, false, "job shell ended without an exit status");
    }
  }

  /** A shell's status (128+N after signal N) as a wait(2)-style status. */
  static int waitStatus(int shellStatus) {
    if (shellStatus > 128 && shellStatus <= 128 + 64) {
      return shellStatus - 128;
    }
    return (shellStatus & 0xff) << 8;
  }

  private void report(int id, int status, boolean launchFailed, String message) {
    if (reported.add(id)) {
      listener.finished(id, status, clock.instant().getEpochSecond(), launchFailed, message);
    }
  }

  /** Signal 0 terminates: SIGTERM to the job's process group, SIGKILL after killWait seconds. */
  public void signal(int jobId, int signal, int killWaitSeconds) {
    signal(jobId, signal, killWaitSeconds, 0);
  }

  private void signal(int jobId, int signal, int killWait, int attempt) {
    OptionalLong pgid = new JobSpool(spool, jobId).readLong(JobSpool.PGID);
    if (pgid.isEmpty()) {
      if (running.containsKey(jobId) && attempt < 50) { // the job shell is still starting it
        timer.schedule(() -> signal(jobId, signal, killWait, attempt + 1), 100, TimeUnit.MILLISECONDS);
      }
      return;
    }
    long group = pgid.getAsLong();
    if (signal != 0) {
      kill(group, signal);
      return;
    }
    kill(group, 15);
    timer.schedule(() -> {
      if (running.containsKey(jobId) && kill(group, 0)) {
        LOG.log(Level.INFO, "job " + jobId + " still alive " + killWait + " s after SIGTERM: SIGKILL");
        kill(group, 9);
      }
    }, Math.max(0, killWait), TimeUnit.SECONDS);
  }

  /** kill(1) on a whole process group; true if it succeeded (for signal 0: the group exists). */
  private static boolean kill(long pgid, int signal) {
    try {
      Process p = new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor() == 0;
    } catch (IOException e) {
      LOG.log(Level.ERROR, "kill -" + signal + " -" + pgid + ": " + e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public Set<Integer> runningJobs() {
    return Set.copyOf(running.keySet());
  }

  /**
   * After a restart: jobs whose job shell still runs are watched again; jobs that ended while
   * this daemon was away are reported now.
   */
  public void recover() throws IOException {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(spool, "job[0-9]*")) {
      for (Path d : dirs) {
        int id = Integer.parseInt(d.getFileName().toString().substring(3));
        if (running.containsKey(id) || reported.contains(id)) {
          continue;
        }
        OptionalLong pid = new JobSpool(spool, id).readLong(JobSpool.WRAPPER);
        var wrapper = pid.isPresent() ? ProcessHandle.of(pid.getAsLong()) : java.util.Optional.<ProcessHandle>empty();
        if (wrapper.isPresent() && wrapper.get().isAlive() && isJobShell(wrapper.get())) {
          LOG.log(Level.INFO, "re-adopted running job " + id);
          watch(id, wrapper.get());
        } else {
          ended(id);
        }
      }
    }
  }

  private boolean isJobShell(ProcessHandle p) {
    return p.info().arguments().map(a -> List.of(a).contains(shell.toString())).orElse(false);
  }

  /** The controller has recorded the job's end: its spool can go. */
  public void forget(int jobId) {
    try {
      new JobSpool(spool, jobId).delete();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot remove spool of job " + jobId + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

package org.corral.slurmd.step;

import com.google.protobuf.ByteString;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.slurmd.launch.JobDirectory;
import org.corral.slurmd.launch.JobEnd;
import org.corral.slurmd.launch.ProcessGroupSignaller;
import org.corral.slurmd.launch.UserLaunch;

/**
 * One task of a step on this node: started through the shared user-launch wrapper (so it runs
 * as the user, leads a process group of its own, and its wait(2) status tells a signal from an
 * exit code), with its stdout and stderr pumped to srun as they come and its stdin fed from
 * srun's frames.
 */
final class RunningTask {
  private static final System.Logger LOG = System.getLogger("slurmd");
  /** After the wrapper exits, output still in the pipes is drained for at most this long. */
  private static final Duration DRAIN = Duration.ofSeconds(5);
  private static final Optional<byte[]> EOF = Optional.empty();
  /** Reads return what the pipe holds (at most 64 KiB on Linux); a small buffer keeps the heap small. */
  private static final int PUMP_BUFFER = Math.min(16 * 1024, StepIo.CHUNK_BYTES);
  private static final long PIPE_THREAD_STACK = 256 * 1024;
  private static final int PGID_WAITS = 250;
  private static final long PGID_WAIT_MILLIS = 20;

  private final StepPlan.TaskPlan plan;
  private final Path dirPath;
  private final JobDirectory dir;
  /** srun's stdin for this task, written by a thread of its own so a task not reading blocks nobody else. */
  private final BlockingQueue<Optional<byte[]>> stdin = new ArrayBlockingQueue<>(64);
  private volatile Process process;
  private volatile boolean ended;
  private volatile boolean stdinClosed;
  private Thread stdoutPump;
  private Thread stderrPump;

  RunningTask(StepPlan.TaskPlan plan, Path dir) {
    this.plan = plan;
    this.dirPath = dir;
    this.dir = JobDirectory.at(dir, plan.taskId());
  }

  int taskId() {
    return plan.taskId();
  }

  /** The task's process group (= its session), once its wrapper has recorded it. */
  OptionalLong processGroup() {
    return dir.processGroup();
  }

  boolean hasEnded() {
    return ended;
  }

  /** @param cgroupProcs the cgroup files the task's shell joins before it runs user code */
  void start(UserLaunch launch, StepPlan step, String nodeName, IoConnection io, List<Path> cgroupProcs)
      throws IOException {
    Files.createDirectories(dirPath);
    Files.setPosixFilePermissions(dirPath, PosixFilePermissions.fromString("rwx------"));
    if (!cgroupProcs.isEmpty()) {
      StringBuilder list = new StringBuilder();
      cgroupProcs.forEach(f -> list.append(f).append('\n'));
      dir.writeRootFile("cgroup", list.toString());
    }
    ProcessBuilder builder = launch.command(dirPath, step.uid(), step.gid(), UserLaunch.Io.STREAMS, nodeName,
        // Output files were created or truncated for the whole step: every task appends.
        new UserLaunch.UserFiles(step.workDir(), plan.stdIn(), plan.stdOut(), plan.stdErr(), true, step.umask()),
        plan.words());
    if (!plan.readsSrunStdin()) {
      builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    Process started = builder.start();
    process = started;
    String name = "task-" + step.key() + "." + plan.taskId();
    stdoutPump = pipeThread(name + "-out", () -> pump(started.getInputStream(), io, false));
    stderrPump = pipeThread(name + "-err", () -> pump(started.getErrorStream(), io, true));
    if (plan.readsSrunStdin()) {
      pipeThread(name + "-in", () -> feed(started.getOutputStream()));
    } else {
      closeQuietly(started.getOutputStream());
    }
  }

  /** Waits for the task to end and its output to be sent; returns its wait(2)-style status. */
  int awaitExit() throws InterruptedException {
    Process p = process;
    p.waitFor();
    long deadline = System.nanoTime() + DRAIN.toNanos();
    for (Thread pump : new Thread[] {stdoutPump, stderrPump}) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        pump.join(Duration.ofNanos(left));
      }
    }
    ended = true;
    Optional<JobEnd> end;
    try {
      end = dir.end();
    } catch (IOException e) {
      end = Optional.empty();
    }
    // A wrapper that died without a status (killed itself): the task went with it.
    return end.map(JobEnd::exitStatus).orElse(ProcessGroupSignaller.SIGKILL);
  }

  /** Queues srun's stdin for the task (dropped when the task does not read srun's stdin). */
  void stdin(byte[] data) throws InterruptedException {
    queue(Optional.of(data));
  }

  void stdinEof() throws InterruptedException {
    queue(EOF);
  }

  /** Waits while the task is slow to read (back-pressure to srun), never once it stopped reading. */
  private void queue(Optional<byte[]> item) throws InterruptedException {
    while (plan.readsSrunStdin() && !ended && !stdinClosed) {
      if (stdin.offer(item, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        return;
      }
    }
  }

  /**
   * Sends signals to the task's process group, waiting briefly for a just-started task to record
   * it. Returns quietly when the task has ended.
   */
  void signal(int... signals) {
    OptionalLong group = dir.processGroup();
    for (int i = 0; group.isEmpty() && i < PGID_WAITS && !ended && !dir.hasEnded(); i++) {
      try {
        Thread.sleep(PGID_WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      group = dir.processGroup();
    }
    if (group.isEmpty() || ended || dir.hasEnded()) {
      return;
    }
    try {
      for (int signal : signals) {
        ProcessGroupSignaller.signal(group.getAsLong(), signal);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "task " + plan.taskId() + ": cannot signal process group " + group.getAsLong(), e);
    }
  }

  /**
   * A platform thread for blocking pipe I/O: a virtual thread blocked in a pipe read holds a
   * carrier thread anyway, and the carriers are capped (256), which many tasks would exhaust.
   */
  private static Thread pipeThread(String name, Runnable body) {
    return Thread.ofPlatform().name(name).daemon().stackSize(PIPE_THREAD_STACK).start(body);
  }

  private void pump(InputStream from, IoConnection io, boolean stderr) {
    byte[] buffer = new byte[PUMP_BUFFER];
    try (from) {
      int n;
      while ((n = from.read(buffer)) > 0) {
        IoData data = IoData.newBuilder().setTask(plan.taskId()).setData(ByteString.copyFrom(buffer, 0, n)).build();
        io.send(stderr ? IoFrame.newBuilder().setStderr(data).build() : IoFrame.newBuilder().setStdout(data).build());
      }
    } catch (IOException e) {
      // the pipe closed under us (the process exited and the JDK took the stream over): done
    }
  }

  private void feed(OutputStream to) {
    try (to) {
      while (true) {
        Optional<byte[]> next = stdin.take();
        if (next.isEmpty()) {
          return;
        }
        to.write(next.get());
        to.flush();
      }
    } catch (IOException e) {
      // the task closed its stdin or ended
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stdinClosed = true;
      stdin.clear();
    }
  }

  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (IOException e) {
      // nothing to close
    }
  }
}

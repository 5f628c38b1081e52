package org.corral.slurmd.step;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.slurmd.launch.JobDirectory;
import org.corral.slurmd.launch.JobEnd;
import org.corral.slurmd.launch.NodeLauncher;
import org.corral.slurmd.launch.ProcessGroupSignaller;
import org.corral.slurmd.launch.UserLaunch;

/**
 * One task of a step on this node: started by the node's launcher, as batch jobs are (so it runs
 * as the user under a supervisor of its own, leads a process group and session of its own, and
 * its wait(2) status tells a signal from an exit code), with its streams in named pipes in its
 * directory: stdout and stderr pumped to srun as they come, stdin fed from srun's frames.
 */
final class RunningTask {
  private static final System.Logger LOG = System.getLogger("slurmd");
  /** After the wrapper exits, output still in the pipes is drained for at most this long. */
  private static final Duration DRAIN = Duration.ofSeconds(5);
  private static final Duration RELEASE_WAIT = Duration.ofMillis(50);
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
  /** Counted down when the task's supervisor reports the end. */
  private final CountDownLatch exited = new CountDownLatch(1);
  private volatile boolean ended;
  private volatile Optional<JobDirectory.EndUsage> endUsage = Optional.empty();
  private volatile boolean stdinClosed;
  private Thread stdoutPump;
  private Thread stderrPump;
  private Thread stdinFeeder;
  private volatile boolean stdoutOpen;
  private volatile boolean stderrOpen;

  RunningTask(StepPlan.TaskPlan plan, Path dir) {
    this.plan = plan;
    this.dirPath = dir;
    this.dir = JobDirectory.at(dir, plan.taskId());
  }

  /** What the task used, as its supervisor saw it end (empty before, or if it could not tell). */
  Optional<JobDirectory.EndUsage> endUsage() {
    return endUsage;
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

  /**
   * @param cgroupProcs the cgroup files the task joins, as root, before it runs user code
   * @param pmiSocket the step's PMI server here, null without one
   */
  void start(NodeLauncher launcher, StepPlan step, String nodeName, IoConnection io, List<Path> cgroupProcs,
      java.util.function.UnaryOperator<UserLaunch> plugins, Path pmiSocket) throws IOException {
    Files.createDirectories(dirPath);
    Files.setPosixFilePermissions(dirPath, PosixFilePermissions.fromString("rwx------"));
    // Output files were created or truncated for the whole step: every task appends.
    plugins.apply(new UserLaunch(UserLaunch.Kind.TASK, step.uid(), step.gid(), nodeName, step.key().toString(),
        step.workDir(), plan.stdIn(), plan.stdOut(), plan.stdErr(), true, step.umask(), plan.environment(),
        plan.command(), cgroupProcs, ""))
        .writeTo(dirPath, pmiSocket == null ? "" : Integer.toUnsignedString(plan.taskId()) + " " + pmiSocket);
    launcher.makeFifos(dirPath);
    // Our ends first: opening a named pipe waits for the other end, which the task opens.
    String name = "task-" + step.key() + "." + plan.taskId();
    stdoutPump = pipeThread(name + "-out", () -> pump(fifo("out"), io, false));
    stderrPump = pipeThread(name + "-err", () -> pump(fifo("err"), io, true));
    if (plan.readsSrunStdin()) {
      stdinFeeder = pipeThread(name + "-in", this::feed);
    }
    launcher.launch(dirPath, step.uid(), exited::countDown);
  }

  /** Waits for the task to end and its output to be sent; returns its wait(2)-style status. */
  int awaitExit() throws InterruptedException {
    // The supervisor reports the end; should it die first, its record tells.
    while (!exited.await(1, TimeUnit.SECONDS)) {
      if (dir.hasEnded() || dir.supervisor() == JobDirectory.Supervisor.GONE) {
        break;
      }
    }
    // The output still in the pipes is drained, for a while at most. A stream the task never
    // opened (its output went to a file, or it failed first) still has its pump waiting for
    // the other end: we are that end for a moment, so that it sees the end of the stream.
    long deadline = System.nanoTime() + DRAIN.toNanos();
    while ((stdoutPump.isAlive() || stderrPump.isAlive()) && System.nanoTime() < deadline) {
      if (!stdoutOpen) {
        releaseWaiting(fifo("out"));
      }
      if (!stderrOpen) {
        releaseWaiting(fifo("err"));
      }
      stdoutPump.join(RELEASE_WAIT);
      stderrPump.join(RELEASE_WAIT);
    }
    ended = true;
    if (stdinFeeder != null) {
      stdin.offer(EOF);
      releaseWaiting(fifo("in"));
    }
    Optional<JobEnd> end;
    try {
      end = dir.end();
    } catch (IOException e) {
      end = Optional.empty();
    }
    endUsage = dir.endUsage();
    // A supervisor that died without a status (killed): the task went with it.
    return end.map(JobEnd::exitStatus).orElse(ProcessGroupSignaller.SIGKILL);
  }

  private Path fifo(String stream) {
    return dirPath.resolve(stream);
  }

  /** Opens the named pipe for reading and writing (never waits) and closes it again. */
  private static void releaseWaiting(Path fifo) {
    try (FileChannel both = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      // opened: whoever waited for an end of this pipe has one now, and sees it go
    } catch (IOException e) {
      // not there (the launch failed before the pipes were made)
    }
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

  private void pump(Path fifo, IoConnection io, boolean stderr) {
    byte[] buffer = new byte[PUMP_BUFFER];
    try (InputStream from = Files.newInputStream(fifo)) {
      if (stderr) {
        stderrOpen = true;
      } else {
        stdoutOpen = true;
      }
      int n;
      while ((n = from.read(buffer)) > 0) {
        IoData data = IoData.newBuilder().setTask(plan.taskId()).setData(ByteString.copyFrom(buffer, 0, n)).build();
        io.send(stderr ? IoFrame.newBuilder().setStderr(data).build() : IoFrame.newBuilder().setStdout(data).build());
      }
    } catch (IOException e) {
      // the pipe went away: done
    }
  }

  private void feed() {
    try (OutputStream to = Files.newOutputStream(fifo("in"), StandardOpenOption.WRITE)) {
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
}

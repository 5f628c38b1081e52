package org.corral.cli.srun;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.corral.cli.submit.SignalQueue;
import org.corral.protocol.StepIds;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoSignal;
import org.corral.protocol.msg.StepInfo;

/**
 * One step from srun's side once it exists: the nodes' I/O connections, the tasks' output,
 * stdin, signals (Ctrl-C status and abort, forwarding), -K and -W, and the end: every task
 * reported, or the controller saying the step is over when a node never reports.
 */
final class StepRun implements StepIoServer.Listener {

  /** How srun was asked to behave. */
  record Settings(boolean label, boolean unbuffered, TaskSelection out, TaskSelection err,
      int stdinTask, boolean killOnBadExit, Integer waitSeconds, boolean disableStatus,
      boolean quitOnInterrupt, int killWait) {}

  /** The controller's side of a running step, for what srun asks of it. */
  interface StepControl {
    /** Cancels the step (signal 0) or signals its tasks. */
    void signal(int signal);

    /** The step as the controller has it now, running or ended; null once the controller no longer knows it. */
    StepInfo current();
  }

  static final long POLL_INTERVAL_NANOS = 3_000_000_000L;
  static final long DOUBLE_INTERRUPT_NANOS = 1_000_000_000L;

  private final PrintStream messages;
  private final InputStream stdin;
  private final SignalQueue signals;
  private final LongSupplier nanoClock;
  private final Settings settings;
  private final StepControl control;
  private final OutputStream taskOut;
  private final OutputStream taskErr;

  private StepLayout layout;
  private String stepName;
  private TaskExits exits;
  private TaskOutput output;
  private StepIoServer io;
  private PmiFenceRelay pmi;
  private final Set<Integer> everConnected = new HashSet<>();
  private final Set<Integer> disconnected = new HashSet<>();
  private boolean launchFailureReported;
  private volatile boolean stopStdin;

  private boolean aborted;
  private boolean quietExits;
  private long abortedAt;
  private boolean killSent;
  private boolean cancelChecked;
  private long lastInterrupt = -1; // when the last Ctrl-C came; -1: none yet
  private long firstExitAt = -1;

  StepRun(PrintStream messages, OutputStream taskOut, OutputStream taskErr, InputStream stdin,
      SignalQueue signals, LongSupplier nanoClock, Settings settings, StepControl control) {
    this.messages = messages;
    this.taskOut = taskOut;
    this.taskErr = taskErr;
    this.stdin = stdin;
    this.signals = signals;
    this.nanoClock = nanoClock;
    this.settings = settings;
    this.control = control;
  }

  /** Runs the step to its end; returns srun's exit code. */
  int run(StepInfo step, byte[] ioKey, StepIoServer server) {
    layout = StepLayout.of(step);
    stepName = "StepId=" + step.getJobId() + "." + StepIds.name(step.getStepId());
    exits = new TaskExits(layout.numTasks(), nanoClock);
    output = new TaskOutput(taskOut, taskErr, layout.numTasks(), settings.label(), settings.unbuffered(),
        settings.out(), settings.err());
    io = server;
    pmi = new PmiFenceRelay(layout.nodes().size(), io::send);
    io.start(step.getJobId(), step.getStepId(), ioKey, layout.nodes(), this);
    Thread.ofPlatform().daemon().name("srun-stdin").start(this::forwardStdin);

    long nextPoll = nanoClock.getAsLong() + POLL_INTERVAL_NANOS;
    boolean gaveUp = false;
    while (!exits.allExited()) {
      Integer sig = signals.poll(20);
      if (sig != null) {
        onSignal(sig);
      }
      checkCancelledElsewhere();
      printExitLines(false);
      checkKillOnBadExit();
      checkWait();
      long now = nanoClock.getAsLong();
      if (aborted && now - abortedAt > (settings.killWait() + 2) * 1_000_000_000L) {
        messages.println("srun: error: Timed out waiting for job step to complete");
        gaveUp = true;
        break;
      }
      if (now >= nextPoll) {
        nextPoll = now + POLL_INTERVAL_NANOS;
        if (someNodeMissing() && stepEnded()) {
          gaveUp = true;
          break;
        }
      }
    }
    stopStdin = true;
    output.finish();
    printExitLines(true);
    int rc = exits.exitCode();
    if (gaveUp) {
      rc = Math.max(rc, 1);
    }
    if (exits.killedBySlurmSignal() && !aborted) {
      messages.println("srun: Force Terminated " + stepName);
    }
    messages.flush();
    return rc;
  }

  // ------------------------------------------------------------------ node events

  @Override
  public void connected(int nodeIndex) {
    synchronized (this) {
      everConnected.add(nodeIndex);
      notifyAll();
    }
  }

  @Override
  public void disconnected(int nodeIndex) {
    synchronized (this) {
      disconnected.add(nodeIndex);
    }
    // What the node had not finished writing still belongs to its tasks' last lines.
    for (int task : layout.tasksByNode().get(nodeIndex)) {
      output.taskEnded(task);
    }
  }

  @Override
  public void frame(int nodeIndex, String node, IoFrame f) {
    List<Integer> own = layout.tasksByNode().get(nodeIndex); // a node speaks only for its tasks
    switch (f.getBodyCase()) {
      case STDOUT -> {
        if (own.contains(f.getStdout().getTask())) {
          output.data(TaskOutput.Stream.OUT, f.getStdout().getTask(), f.getStdout().getData().toByteArray());
        }
      }
      case STDERR -> {
        if (own.contains(f.getStderr().getTask())) {
          output.data(TaskOutput.Stream.ERR, f.getStderr().getTask(), f.getStderr().getData().toByteArray());
        }
      }
      case TASK_EXIT -> {
        int task = (int) f.getTaskExit().getTask();
        if (own.contains(task)) {
          output.taskEnded(task);
          exits.exited(node, task, f.getTaskExit().getStatus());
        }
      }
      case LAUNCH_FAILED -> launchFailed(nodeIndex, node, f.getLaunchFailed().getMessage());
      case PMI_FENCE -> {
        if (!pmi.fromNode(nodeIndex, f.getPmiFence())) {
          messages.println("srun: error: mpi/pmi2: invalid fence from " + node);
          pmiAbort();
        }
      }
      case PMI_ABORT -> {
        if (own.contains((int) f.getPmiAbort().getTask())) {
          pmiAbort();
        }
      }
      default -> { } // frames srun sends, or unknown ones: ignored
    }
  }

  private synchronized void launchFailed(int nodeIndex, String node, String message) {
    messages.println("srun: error: Task launch for " + stepName + " failed on node " + node + ": " + message);
    if (!launchFailureReported) {
      launchFailureReported = true;
      messages.println("srun: error: Application launch failed: " + message);
    }
    for (int task : layout.tasksByNode().get(nodeIndex)) {
      exits.failed(task, 1 << 8);
    }
    if (!exits.allExited()) {
      abort(false);
    }
  }

  // ------------------------------------------------------------------ srun's own decisions

  private void onSignal(int sig) {
    switch (sig) {
      case SignalQueue.SIGINT -> onInterrupt();
      case SignalQueue.SIGTERM, SignalQueue.SIGHUP -> abort(false);
      default -> forward(sig);
    }
  }

  private void onInterrupt() {
    long now = nanoClock.getAsLong();
    if (aborted) {
      return; // already ending
    }
    if (settings.disableStatus()) {
      messages.println("srun: sending Ctrl-C to " + stepName);
      forward(SignalQueue.SIGINT);
      return;
    }
    boolean second = lastInterrupt >= 0 && now - lastInterrupt <= DOUBLE_INTERRUPT_NANOS;
    if (!settings.quitOnInterrupt() && !second) {
      lastInterrupt = now;
      messages.println("srun: interrupt (one more within 1 sec to abort)");
      printStatus();
      return;
    }
    messages.println("srun: sending Ctrl-C to " + stepName);
    forward(SignalQueue.SIGINT);
    abort(true);
  }

  /** "srun: StepId=J.S tasks 0-3: running", then the exited ones. */
  private void printStatus() {
    List<Integer> running = exits.runningTasks();
    List<Integer> ended = exits.exitedTasks();
    if (!running.isEmpty()) {
      messages.println("srun: " + stepName + " " + TaskRanges.describe(running) + ": running");
    }
    if (!ended.isEmpty()) {
      messages.println("srun: " + stepName + " " + TaskRanges.describe(ended) + ": exited");
    }
  }

  /** Ends the step: the controller kills what still runs; srun waits KillWait for it. */
  private synchronized void abort(boolean silenceExits) {
    if (aborted) {
      return;
    }
    aborted = true;
    quietExits = silenceExits;
    abortedAt = nanoClock.getAsLong();
    messages.println("srun: forcing job termination");
    cancel();
    messages.println("srun: Job step aborted: Waiting up to " + (settings.killWait() + 2)
        + " seconds for job step to finish.");
  }

  /**
   * A task called PMI abort (or a node broke the key exchange): the step is cancelled, as
   * Slurm's srun does, saying only that it was aborted.
   */
  private synchronized void pmiAbort() {
    if (aborted) {
      return;
    }
    aborted = true;
    abortedAt = nanoClock.getAsLong();
    cancel();
    messages.println("srun: Job step aborted: Waiting up to " + (settings.killWait() + 2)
        + " seconds for job step to finish.");
  }

  private void cancel() {
    if (!killSent) {
      killSent = true;
      control.signal(0);
    }
  }

  /**
   * A task killed by SIGKILL or SIGTERM that srun did not ask for: if the step was cancelled
   * (scancel, the job's end), srun says the step was aborted, before the tasks' lines, as
   * Slurm does; otherwise (a task killed itself) it says "Force Terminated" at the end.
   */
  private void checkCancelledElsewhere() {
    if (aborted || killSent || cancelChecked || !exits.killedBySlurmSignal()) {
      return;
    }
    cancelChecked = true;
    // Tasks that killed themselves end the step as it would have ended anyway (FAILED): only a
    // step cancelled (itself or with its job) was aborted.
    StepInfo now = control.current();
    if (now == null || now.getCancelled() || now.getState() == org.corral.protocol.msg.JobState.CANCELLED) {
      aborted = true;
      abortedAt = nanoClock.getAsLong();
      messages.println("srun: Job step aborted: Waiting up to " + (settings.killWait() + 2)
          + " seconds for job step to finish.");
    }
  }

  private void checkKillOnBadExit() {
    if (settings.killOnBadExit() && !killSent && !aborted && exits.exitCode() != 0) {
      printExitLines(true);
      messages.println("srun: launch/slurm: _step_signal: Terminating " + stepName);
      cancel();
    }
  }

  private void checkWait() {
    if (settings.waitSeconds() == null || aborted || exits.exitedCount() == 0) {
      return;
    }
    long now = nanoClock.getAsLong();
    if (firstExitAt < 0) {
      firstExitAt = now;
      return;
    }
    if (now - firstExitAt >= settings.waitSeconds() * 1_000_000_000L) {
      printExitLines(true);
      messages.println("srun: First task exited " + settings.waitSeconds() + "s ago");
      printStatus();
      messages.println("srun: launch/slurm: _step_signal: Terminating " + stepName);
      aborted = true;
      abortedAt = now;
      cancel();
      messages.println("srun: Job step aborted: Waiting up to " + (settings.killWait() + 2)
          + " seconds for job step to finish.");
    }
  }

  private void forward(int sig) {
    IoFrame f = IoFrame.newBuilder().setSignal(IoSignal.newBuilder().setSignal(sig)).build();
    for (int i = 0; i < layout.nodes().size(); i++) {
      io.send(i, f);
    }
  }

  private void printExitLines(boolean all) {
    List<String> lines = exits.takeLines(all);
    if (!quietExits) {
      lines.forEach(messages::println);
    }
  }

  // ------------------------------------------------------------------ nodes that never report

  /** Whether a node with unfinished tasks is not (or no longer) connected. */
  private synchronized boolean someNodeMissing() {
    for (int i = 0; i < layout.nodes().size(); i++) {
      boolean unfinished = layout.tasksByNode().get(i).stream().anyMatch(t -> !exits.hasExited(t));
      if (unfinished && (!everConnected.contains(i) || disconnected.contains(i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Asks the controller whether the step is still running; when it is not, the tasks of nodes
   * that never reported are accounted: with the status the controller recorded, or as lost.
   */
  private boolean stepEnded() {
    StepInfo now = control.current();
    if (now != null && now.getState() == org.corral.protocol.msg.JobState.RUNNING) {
      return false;
    }
    int status = now == null ? 0 : now.getExitStatus();
    synchronized (this) {
      for (int i = 0; i < layout.nodes().size(); i++) {
        List<Integer> missing = layout.tasksByNode().get(i).stream().filter(t -> !exits.hasExited(t)).toList();
        if (missing.isEmpty()) {
          continue;
        }
        if (status != 0) {
          missing.forEach(t -> exits.exited(layout.nodes().get(layout.nodeOf(t)), t, status));
        } else {
          messages.println("srun: error: Node failure on " + layout.nodes().get(i));
          missing.forEach(t -> exits.failed(t, 1 << 8));
        }
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ stdin

  /** Sends srun's stdin to the task(s) it is for, once their nodes are connected. */
  private void forwardStdin() {
    int task = settings.stdinTask();
    if (task == TaskSelection.NONE.task() || stdin == null) {
      return;
    }
    List<Integer> targets = task >= 0 ? List.of(layout.nodeOf(task))
        : java.util.stream.IntStream.range(0, layout.nodes().size()).boxed().toList();
    if (targets.contains(-1) || !awaitConnected(targets)) {
      return;
    }
    byte[] buf = new byte[StepIo.CHUNK_BYTES];
    try {
      int n;
      while (!stopStdin && (n = stdin.read(buf)) > 0) {
        IoFrame f = IoFrame.newBuilder().setStdin(IoData.newBuilder().setTask(task)
            .setData(ByteString.copyFrom(buf, 0, n))).build();
        targets.forEach(t -> io.send(t, f));
      }
    } catch (IOException e) {
      // stdin unreadable: the tasks get end-of-file, as with an empty one.
    }
    IoFrame eof = IoFrame.newBuilder().setStdinEof(IoData.newBuilder().setTask(task)).build();
    targets.forEach(t -> io.send(t, eof));
  }

  private synchronized boolean awaitConnected(List<Integer> targets) {
    while (!stopStdin && !everConnected.containsAll(targets)) {
      try {
        wait(200);
      } catch (InterruptedException e) {
        return false;
      }
    }
    return !stopStdin;
  }
}

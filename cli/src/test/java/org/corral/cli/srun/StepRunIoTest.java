package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.corral.cli.submit.SignalQueue;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoHello;
import org.corral.protocol.msg.IoLaunchFailed;
import org.corral.protocol.msg.IoTaskExit;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * srun's side of the step I/O protocol against real TCP peers that act as node daemons: they
 * connect, say hello and stream frames exactly as a node does.
 */
@Timeout(30)
class StepRunIoTest {

  private static final byte[] KEY = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final StepInfo STEP = StepInfo.newBuilder().setJobId(7).setStepId(2)
      .addNodeNames("n1").addNodeNames("n2").addTasksOnNode(2).addTasksOnNode(1).setNumTasks(3)
      .setState(JobState.RUNNING).build();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final PrintStream messages = new PrintStream(err, true, StandardCharsets.UTF_8);
  private final SignalQueue signals = new SignalQueue();
  private final List<Integer> stepSignals = new CopyOnWriteArrayList<>();
  private volatile StepInfo controllerView = STEP;
  private final List<Node> nodes = new CopyOnWriteArrayList<>();
  private int port;
  private StepIoServer ioServer;

  /** A node daemon's end of one connection. */
  final class Node implements AutoCloseable {
    final Socket socket;
    final LinkedBlockingQueue<IoFrame> received = new LinkedBlockingQueue<>();

    Node(int index, String name, byte[] key, int stepId) throws IOException {
      socket = new Socket("127.0.0.1", port);
      send(IoFrame.newBuilder().setHello(IoHello.newBuilder().setJobId(7).setStepId(stepId)
          .setNodeIndex(index).setNodeName(name).setIoKey(ByteString.copyFrom(key))).build());
      Thread.ofVirtual().start(() -> {
        try {
          InputStream in = socket.getInputStream();
          IoFrame f;
          while ((f = StepIo.read(in)) != null) {
            received.add(f);
          }
        } catch (IOException e) {
          // closed
        }
        received.add(IoFrame.getDefaultInstance()); // end-of-stream marker
      });
      nodes.add(this);
    }

    Node(int index, String name) throws IOException {
      this(index, name, KEY, 2);
    }

    void send(IoFrame f) throws IOException {
      StepIo.write(socket.getOutputStream(), f);
      socket.getOutputStream().flush();
    }

    void stdout(int task, String text) throws IOException {
      send(IoFrame.newBuilder().setStdout(data(task, text)).build());
    }

    void stderr(int task, String text) throws IOException {
      send(IoFrame.newBuilder().setStderr(data(task, text)).build());
    }

    void exit(int task, int status) throws IOException {
      send(IoFrame.newBuilder().setTaskExit(IoTaskExit.newBuilder().setTask(task).setStatus(status)).build());
    }

    IoFrame next() throws InterruptedException {
      IoFrame f = received.poll(10, TimeUnit.SECONDS);
      assertThat(f).as("a frame from srun").isNotNull();
      return f;
    }

    /** Whether srun closed this connection (refused it). */
    boolean closedBySrun() throws InterruptedException {
      IoFrame f = received.poll(10, TimeUnit.SECONDS);
      return f != null && f.getBodyCase() == IoFrame.BodyCase.BODY_NOT_SET;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  private static IoData data(int task, String text) {
    return IoData.newBuilder().setTask(task).setData(ByteString.copyFromUtf8(text)).build();
  }

  @AfterEach
  void closeNodes() throws IOException {
    for (Node n : nodes) {
      n.close();
    }
  }

  private void awaitConnected(int nodeIndex) throws InterruptedException {
    for (int i = 0; i < 200 && !ioServer.isConnected(nodeIndex); i++) {
      Thread.sleep(50);
    }
    assertThat(ioServer.isConnected(nodeIndex)).as("node %d connected", nodeIndex).isTrue();
  }

  private CompletableFuture<Integer> start(StepRun.Settings settings, InputStream stdin) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress("127.0.0.1", 0));
    port = server.getLocalPort();
    StepIoServer io = new StepIoServer(server);
    ioServer = io;
    StepRun.StepControl control = new StepRun.StepControl() {
      @Override
      public void signal(int signal) {
        stepSignals.add(signal);
      }

      @Override
      public StepInfo current() {
        return controllerView;
      }
    };
    StepRun run = new StepRun(messages, out, messages, stdin, signals, System::nanoTime, settings, control);
    CompletableFuture<Integer> rc = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try (io) {
        rc.complete(run.run(STEP, KEY, io));
      } catch (RuntimeException e) {
        rc.completeExceptionally(e);
      }
    }, "srun-under-test");
    t.setDaemon(true);
    t.start();
    return rc;
  }

  private static StepRun.Settings settings(boolean label, int stdinTask) {
    return new StepRun.Settings(label, false, TaskSelection.ALL, TaskSelection.ALL, stdinTask, false,
        null, false, false, 30);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void labelledOutputAndExitsFromTwoNodes() throws Exception {
    CompletableFuture<Integer> rc = start(settings(true, -2), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    n1.stdout(0, "hello from 0\n");
    n2.stdout(2, "partial"); // held until its line ends or its task does
    n1.stdout(1, "one\n");
    n1.stdout(2, "not n1's task\n"); // ignored: task 2 runs on n2
    Thread.sleep(200); // the two nodes' streams are independent: let n1's arrive first
    n2.stderr(2, "oops\n");
    n2.exit(2, 3 << 8);
    n1.exit(0, 0);
    n1.exit(1, 0);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(3);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("0: hello from 0\n1: one\n2: partial\n");
    assertThat(err()).isEqualTo("2: oops\nsrun: error: n2: task 2: Exited with exit code 3\n");
  }

  /**
   * Tasks that killed themselves: whether the controller still shows the step running or the
   * nodes told it first and it has ended (FAILED, not cancelled), srun did not abort it.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void killedTasksAreReportedTogetherAndForceTerminated(boolean endedInTheController) throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    if (endedInTheController) {
      controllerView = STEP.toBuilder().setState(org.corral.protocol.msg.JobState.FAILED).setExitStatus(9).build();
    }
    n1.exit(0, 9);
    n1.exit(1, 9);
    Thread.sleep(200); // separate connections: make n1's report come first
    n2.exit(2, 9);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(err()).isEqualTo("srun: error: n1: tasks 0-1: Killed\nsrun: error: n2: task 2: Killed\n"
        + "srun: Force Terminated StepId=7.2\n");
  }

  @Test
  void aStepCancelledElsewhereIsReportedAsAborted() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    controllerView = STEP.toBuilder().setCancelled(true).build(); // scancel JOB.STEP
    n1.exit(0, 15);
    n1.exit(1, 15);
    Thread.sleep(200);
    n2.exit(2, 9);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(143);
    assertThat(err()).isEqualTo("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        + "srun: error: n1: tasks 0-1: Terminated\nsrun: error: n2: task 2: Killed\n");
    assertThat(stepSignals).isEmpty();
  }

  @Test
  void helloWithAWrongKeyStepOrRepeatedNodeIsRefused() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node badKey = new Node(0, "n1", "0123456789abcdeX".getBytes(StandardCharsets.US_ASCII), 2);
    assertThat(badKey.closedBySrun()).isTrue();
    Node badStep = new Node(0, "n1", KEY, 3);
    assertThat(badStep.closedBySrun()).isTrue();
    Node badIndex = new Node(5, "n6");
    assertThat(badIndex.closedBySrun()).isTrue();
    Node n1 = new Node(0, "n1");
    awaitConnected(0); // the first connection for a node is the one that counts
    Node again = new Node(0, "n1");
    assertThat(again.closedBySrun()).isTrue();
    Node n2 = new Node(1, "n2");
    n1.exit(0, 0);
    n1.exit(1, 0);
    n2.exit(2, 0);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(err()).isEmpty();
  }

  @Test
  void stdinGoesToEveryNodeThenEndOfFile() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -1),
        new ByteArrayInputStream("line one\n".getBytes(StandardCharsets.UTF_8)));
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    for (Node n : List.of(n1, n2)) {
      IoFrame data = n.next();
      assertThat(data.getStdin().getTask()).isEqualTo(-1);
      assertThat(data.getStdin().getData().toStringUtf8()).isEqualTo("line one\n");
      assertThat(n.next().hasStdinEof()).isTrue();
    }
    n1.exit(0, 0);
    n1.exit(1, 0);
    n2.exit(2, 0);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void stdinForOneTaskGoesOnlyToItsNode() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, 2),
        new ByteArrayInputStream("x".getBytes(StandardCharsets.UTF_8)));
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    IoFrame data = n2.next();
    assertThat(data.getStdin().getTask()).isEqualTo(2);
    assertThat(n2.next().getStdinEof().getTask()).isEqualTo(2);
    n1.exit(0, 0);
    n1.exit(1, 0);
    n2.exit(2, 0);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(n1.received.stream().filter(IoFrame::hasStdin).count()).isZero();
  }

  @Test
  void oneInterruptReportsStatusTwoAbortTheStep() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    n1.exit(1, 0);
    Thread.sleep(300);
    signals.post(SignalQueue.SIGINT);
    signals.post(SignalQueue.SIGINT);
    assertThat(n1.next().getSignal().getSignal()).isEqualTo(2);
    assertThat(n2.next().getSignal().getSignal()).isEqualTo(2);
    n1.exit(0, 2);
    n2.exit(2, 9);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(stepSignals).containsExactly(0);
    assertThat(err()).isEqualTo("""
        srun: interrupt (one more within 1 sec to abort)
        srun: StepId=7.2 tasks 0,2: running
        srun: StepId=7.2 task 1: exited
        srun: sending Ctrl-C to StepId=7.2
        srun: forcing job termination
        srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
        """);
  }

  @Test
  void otherSignalsAreForwardedAndTermAbortsButReportsTasks() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    Thread.sleep(200);
    signals.post(SignalQueue.SIGUSR1);
    assertThat(n1.next().getSignal().getSignal()).isEqualTo(SignalQueue.SIGUSR1);
    assertThat(n2.next().getSignal().getSignal()).isEqualTo(SignalQueue.SIGUSR1);
    signals.post(SignalQueue.SIGTERM);
    Thread.sleep(200);
    n1.exit(0, 9);
    n1.exit(1, 9);
    Thread.sleep(200); // separate connections: make n1's report come first
    n2.exit(2, 9);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(stepSignals).containsExactly(0);
    assertThat(err()).isEqualTo("srun: forcing job termination\n"
        + "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        + "srun: error: n1: tasks 0-1: Killed\nsrun: error: n2: task 2: Killed\n");
  }

  @Test
  void killOnBadExitCancelsTheStep() throws Exception {
    CompletableFuture<Integer> rc = start(new StepRun.Settings(false, false, TaskSelection.ALL,
        TaskSelection.ALL, -2, true, null, false, false, 30), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    n1.exit(0, 2 << 8);
    Thread.sleep(400);
    assertThat(stepSignals).containsExactly(0);
    n1.exit(1, 15);
    Thread.sleep(200);
    n2.exit(2, 15);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(143);
    assertThat(err()).isEqualTo("srun: error: n1: task 0: Exited with exit code 2\n"
        + "srun: launch/slurm: _step_signal: Terminating StepId=7.2\n"
        + "srun: error: n1: task 1: Terminated\nsrun: error: n2: task 2: Terminated\n"
        + "srun: Force Terminated StepId=7.2\n");
  }

  @Test
  void waitKillsTheRestSecondsAfterTheFirstTaskEnds() throws Exception {
    CompletableFuture<Integer> rc = start(new StepRun.Settings(false, false, TaskSelection.ALL,
        TaskSelection.ALL, -2, false, 1, false, false, 30), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    n1.exit(0, 0);
    n1.exit(1, 0);
    Thread.sleep(1600);
    assertThat(stepSignals).containsExactly(0);
    n2.exit(2, 9);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(err()).isEqualTo("""
        srun: First task exited 1s ago
        srun: StepId=7.2 task 2: running
        srun: StepId=7.2 tasks 0-1: exited
        srun: launch/slurm: _step_signal: Terminating StepId=7.2
        srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
        srun: error: n2: task 2: Killed
        """);
  }

  @Test
  void launchFailureIsReported() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node n1 = new Node(0, "n1");
    Node n2 = new Node(1, "n2");
    n2.send(IoFrame.newBuilder().setLaunchFailed(IoLaunchFailed.newBuilder()
        .setMessage("No such file or directory").addTaskIds(2)).build());
    Thread.sleep(200);
    n1.exit(0, 9);
    n1.exit(1, 9);
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(err()).startsWith(
        "srun: error: Task launch for StepId=7.2 failed on node n2: No such file or directory\n"
        + "srun: error: Application launch failed: No such file or directory\n"
        + "srun: forcing job termination\n");
    assertThat(stepSignals).containsExactly(0);
  }

  @Test
  void aNodeThatNeverConnectsEndsWithTheStep() throws Exception {
    CompletableFuture<Integer> rc = start(settings(false, -2), null);
    Node n1 = new Node(0, "n1");
    n1.exit(0, 0);
    n1.exit(1, 0);
    controllerView = null; // the controller no longer lists the step
    assertThat(rc.get(20, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(err()).isEqualTo("srun: error: Node failure on n2\n");
  }
}

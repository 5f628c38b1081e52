package org.corral.slurmd.step;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoSignal;

/** srun's side of the step I/O protocol, as a test needs it: accepts nodes, records their frames, sends stdin. */
final class FakeSrun implements AutoCloseable {
  private final ServerSocket server;
  private final List<IoFrame> frames = new ArrayList<>();
  private final List<Socket> connections = new ArrayList<>();
  private int closedConnections;

  FakeSrun() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(this::accept);
  }

  int port() {
    return server.getLocalPort();
  }

  private void accept() {
    try {
      while (true) {
        Socket socket = server.accept();
        synchronized (this) {
          connections.add(socket);
        }
        Thread.ofVirtual().start(() -> read(socket));
      }
    } catch (IOException e) {
      // closed
    }
  }

  private void read(Socket socket) {
    try (socket) {
      IoFrame frame;
      while ((frame = StepIo.read(socket.getInputStream())) != null) {
        synchronized (this) {
          frames.add(frame);
          notifyAll();
        }
      }
    } catch (IOException e) {
      // reset: counted as closed
    }
    synchronized (this) {
      closedConnections++;
      notifyAll();
    }
  }

  synchronized List<IoFrame> frames() {
    return List.copyOf(frames);
  }

  synchronized int connectionCount() {
    return connections.size();
  }

  /** Waits until a frame matching the test arrives; fails after 20 s. */
  synchronized IoFrame await(Predicate<IoFrame> test) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      for (IoFrame f : frames) {
        if (test.test(f)) {
          return f;
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no such frame; got " + frames);
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  IoFrame awaitExit(int task) throws InterruptedException {
    return await(f -> f.hasTaskExit() && f.getTaskExit().getTask() == task);
  }

  /** Waits until every node connection has been closed by its node. */
  synchronized void awaitClosed(int connectionsExpected) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (closedConnections < connectionsExpected) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(closedConnections + " of " + connectionsExpected + " connections closed; frames " + frames);
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /** Everything a task wrote on stdout (or stderr), in order. */
  synchronized String output(int task, boolean stderr) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (IoFrame f : frames) {
      IoData d = stderr ? (f.hasStderr() ? f.getStderr() : null) : (f.hasStdout() ? f.getStdout() : null);
      if (d != null && d.getTask() == task) {
        out.writeBytes(d.getData().toByteArray());
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  void send(IoFrame frame) throws IOException {
    Socket socket;
    synchronized (this) {
      socket = connections.get(0);
    }
    OutputStream out = socket.getOutputStream();
    synchronized (socket) {
      StepIo.write(out, frame);
      out.flush();
    }
  }

  void stdin(int task, String text) throws IOException {
    send(IoFrame.newBuilder().setStdin(IoData.newBuilder().setTask(task).setData(ByteString.copyFromUtf8(text))).build());
  }

  void stdinEof(int task) throws IOException {
    send(IoFrame.newBuilder().setStdinEof(IoData.newBuilder().setTask(task)).build());
  }

  void signal(int signal) throws IOException {
    send(IoFrame.newBuilder().setSignal(IoSignal.newBuilder().setSignal(signal)).build());
  }

  @Override
  public synchronized void close() throws IOException {
    server.close();
    for (Socket s : connections) {
      s.close();
    }
  }
}

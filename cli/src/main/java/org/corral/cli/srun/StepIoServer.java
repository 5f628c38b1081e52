package org.corral.cli.srun;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoHello;

/**
 * srun's end of a step's I/O streams: accepts one TCP connection per node of the step, checks
 * its IoHello (this job and step, the step's secret key compared in constant time, a node
 * index of the step not seen before) and closes connections that fail; then hands each frame
 * to the {@link Listener} and lets srun send frames (stdin, signals) back to a node.
 */
final class StepIoServer implements AutoCloseable {

  /** How long a connection may take to say hello. */
  static final int HELLO_TIMEOUT_MS = 10_000;

  /** What arrives from the nodes; called from one thread per node. */
  interface Listener {
    void connected(int nodeIndex);

    void frame(int nodeIndex, String node, IoFrame frame);

    /** The node's stream ended (or broke). */
    void disconnected(int nodeIndex);
  }

  private final ServerSocket server;
  private final Map<Integer, OutputStream> nodes = new ConcurrentHashMap<>();
  private final Map<Integer, Socket> sockets = new ConcurrentHashMap<>();
  private final java.util.Set<Integer> seen = new java.util.HashSet<>();
  private volatile boolean closed;

  StepIoServer(ServerSocket server) {
    this.server = server;
  }

  int port() {
    return server.getLocalPort();
  }

  /** Starts accepting the nodes of the given step. */
  void start(int jobId, int stepId, byte[] ioKey, List<String> nodeNames, Listener listener) {
    // Platform threads, not virtual ones: a virtual thread's socket I/O starts the JDK's poller,
    // a thread that waits in native code, and the JVM then spends 300 ms at exit waiting for it.
    Thread.ofPlatform().daemon().name("srun-io-accept").start(() -> {
      while (!closed) {
        Socket s;
        try {
          s = server.accept();
        } catch (IOException e) {
          return; // closed
        }
        Thread.ofPlatform().daemon().name("srun-io-node").start(() -> serve(s, jobId, stepId, ioKey, nodeNames, listener));
      }
    });
  }

  private void serve(Socket s, int jobId, int stepId, byte[] ioKey, List<String> nodeNames, Listener listener) {
    int index = -1;
    try (s) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(HELLO_TIMEOUT_MS);
      InputStream in = s.getInputStream();
      IoFrame first = StepIo.read(in);
      if (first == null || !first.hasHello()) {
        return;
      }
      IoHello hello = first.getHello();
      int claimed = (int) hello.getNodeIndex();
      if (hello.getJobId() != jobId || hello.getStepId() != stepId
          || !MessageDigest.isEqual(hello.getIoKey().toByteArray(), ioKey)
          || claimed < 0 || claimed >= nodeNames.size()) {
        return;
      }
      synchronized (nodes) {
        if (!seen.add(claimed) || closed) {
          return; // a second connection for a node is refused, even after the first ended
        }
        nodes.put(claimed, new BufferedOutputStream(s.getOutputStream()));
        sockets.put(claimed, s);
      }
      index = claimed;
      s.setSoTimeout(0);
      String name = nodeNames.get(index);
      listener.connected(index);
      IoFrame f;
      while ((f = StepIo.read(in)) != null) {
        listener.frame(index, name, f);
      }
    } catch (SocketTimeoutException e) {
      // No hello in time: not one of our nodes.
    } catch (IOException e) {
      // A broken stream ends like a closed one.
    } finally {
      if (index >= 0) {
        nodes.remove(index);
        listener.disconnected(index);
      }
    }
  }

  /** Sends a frame to a node; false when it is not connected (or the send failed). */
  boolean send(int nodeIndex, IoFrame frame) {
    OutputStream out = nodes.get(nodeIndex);
    if (out == null) {
      return false;
    }
    synchronized (out) {
      try {
        StepIo.write(out, frame);
        out.flush();
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }

  boolean isConnected(int nodeIndex) {
    return nodes.containsKey(nodeIndex);
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // Nothing to do: we are leaving.
    }
    for (Socket s : sockets.values()) {
      try {
        s.close();
      } catch (IOException e) {
        // Same.
      }
    }
  }
}

package org.corral.slurmd.step;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.Consumer;
import org.corral.protocol.StepIo;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoHello;

/**
 * This node's I/O connection to srun for one step: IoHello first, then frames both ways. Frames
 * are written whole and flushed at once (output is live); a connection that failed stays quiet
 * afterwards, so that tasks run on (and are reaped) when srun has gone.
 */
final class IoConnection implements AutoCloseable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private volatile boolean broken;
  private volatile Thread reader;

  private IoConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.out = new BufferedOutputStream(socket.getOutputStream(), StepIo.MAX_FRAME_BYTES);
    this.in = new BufferedInputStream(socket.getInputStream());
  }

  /** Connects and says hello; throws when srun cannot be reached. */
  static IoConnection open(String host, int port, int timeoutMillis, IoHello hello) throws IOException {
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress(host, port), timeoutMillis);
      IoConnection connection = new IoConnection(socket);
      connection.sendOrThrow(IoFrame.newBuilder().setHello(hello).build());
      return connection;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** Sends a frame; after the first failure, frames are dropped. */
  void send(IoFrame frame) {
    try {
      sendOrThrow(frame);
    } catch (IOException e) {
      broken = true;
    }
  }

  private void sendOrThrow(IoFrame frame) throws IOException {
    synchronized (out) {
      if (broken) {
        return;
      }
      StepIo.write(out, frame);
      out.flush();
    }
  }

  /** Reads srun's frames in a thread of their own until srun closes or the connection fails. */
  void startReading(String name, Consumer<IoFrame> handler) {
    reader = Thread.ofVirtual().name(name).start(() -> {
      try {
        IoFrame frame;
        while ((frame = StepIo.read(in)) != null) {
          handler.accept(frame);
        }
      } catch (IOException e) {
        // srun went away or the connection was closed here: stop reading
      }
    });
  }

  /**
   * Half-closes after the last frame: srun reads the end of the stream and closes its side, so
   * nothing sent is lost to a reset. Waits up to {@code lingerMillis} for that, then closes.
   */
  void finish(int lingerMillis) {
    synchronized (out) {
      try {
        out.flush();
        socket.shutdownOutput();
      } catch (IOException e) {
        broken = true;
      }
    }
    if (reader == null) {
      startReading("io-drain", frame -> { });
    }
    try {
      reader.join(java.time.Duration.ofMillis(lingerMillis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    close();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing left to do
    }
  }
}

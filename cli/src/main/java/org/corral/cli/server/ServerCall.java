package org.corral.cli.server;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import org.corral.cli.Caller;
import org.corral.cli.LocalClock;
import org.corral.cli.Main;

/**
 * One connection from a front end: the hello (a front end of another build is refused, and
 * this server retires), the call, then the command run on a virtual thread of its own while
 * this one relays the front end's stdin and signals to it.
 */
final class ServerCall implements Runnable {
  private static final int SIGHUP = 1;
  private final CommandServer server;
  private final SocketChannel channel;

  ServerCall(CommandServer server, SocketChannel channel) {
    this.server = server;
    this.channel = channel;
  }

  @Override
  public void run() {
    try (channel) {
      serve();
    } catch (IOException | RuntimeException e) {
      // a broken or malformed connection ends that call only
    }
  }

  private void serve() throws IOException {
    // Streams straight over the channel: reads and writes never wait on each other (the
    // command writes while this thread waits for stdin and signals), which Channels' streams
    // do not promise for a blocking channel.
    DataInputStream in = new DataInputStream(new BufferedInputStream(new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return channel.read(ByteBuffer.wrap(b, off, len));
      }
    }, 64 * 1024));
    OutputStream out = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
          channel.write(buf);
        }
      }
    };
    Frames.Frame hello = Frames.read(in);
    if (hello == null || hello.type() != Frames.HELLO) {
      return;
    }
    String[] h = new String(hello.payload(), StandardCharsets.UTF_8).split("\0", -1);
    if (h.length != 2 || !h[0].equals(Frames.MAGIC)) {
      return;
    }
    if (!h[1].equals(server.buildId())) {
      byte[] mine = server.buildId().getBytes(StandardCharsets.UTF_8);
      server.retire(); // the front end's jars are newer (or other): this server's code is stale
      Frames.write(out, Frames.OTHER_BUILD, mine, 0, mine.length);
      return;
    }
    Frames.Frame first = Frames.read(in);
    if (first == null) {
      return;
    }
    if (first.type() == Frames.STOP) {
      server.retire();
      return;
    }
    if (first.type() != Frames.CALL) {
      return;
    }
    CallRequest call = CallRequest.parse(first.payload());
    if (!server.begin()) {
      Frames.write(out, Frames.BUSY, new byte[0], 0, 0);
      return;
    }
    try {
      Frames.write(out, Frames.ACCEPTED, new byte[0], 0, 0);
      run(call, in, new FrontEndLink(out, server.timer()));
    } finally {
      server.end();
    }
  }

  private void run(CallRequest call, DataInputStream in, FrontEndLink link) throws IOException {
    CallerSignals signals = new CallerSignals();
    Caller caller = new Caller(call.cwd(), () -> link.stdin, call.pid(), call.stdinTerminal(), signals);
    Thread command = Thread.ofVirtual().name("call-" + call.program()).start(() -> link.exit(execute(call, caller, link)));
    try {
      Frames.Frame f;
      while ((f = Frames.read(in)) != null) {
        switch (f.type()) {
          case Frames.STDIN -> link.stdinArrived(f.payload());
          case Frames.SIGNAL -> {
            int sig = f.payload().length == 1 ? f.payload()[0] & 0xff : 0;
            if (sig > 0 && !signals.deliver(sig)) {
              link.die(sig);
              command.interrupt();
            }
          }
          default -> { }
        }
      }
    } catch (IOException e) {
      // the front end went away
    }
    link.frontEndGone();
    // The front end died (killed, its terminal gone): the command gets the hang-up a command
    // of its own would get with its terminal, srun aborting its step; one that does not catch
    // it is interrupted, and its output is dropped. The server counts it until it ends.
    if (command.isAlive() && !signals.deliver(SIGHUP)) {
      command.interrupt();
    }
    try {
      command.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Runs the command as Main would, its uncaught exceptions reported as the JVM reports them. */
  private static int execute(CallRequest call, Caller caller, FrontEndLink link) {
    PrintStream out = new PrintStream(link.stdout, false, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(link.stderr, true, StandardCharsets.UTF_8);
    int rc;
    try {
      rc = Main.run(call.program(), call.args(), out, err, call.env(), LocalClock.forTimeZone(call.env().get("TZ")),
          caller);
    } catch (RuntimeException | Error e) {
      err.print("Exception in thread \"main\" ");
      e.printStackTrace(err);
      rc = 1;
    }
    out.flush();
    err.flush();
    return rc;
  }
}

package org.corral.protocol;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * A user command's channel to the controller's local socket. It sends no credential: the
 * controller learns who we are from the kernel.
 */
public final class UnixSocketChannel implements RpcChannel {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final Path socket;
  private final Duration timeout;

  public UnixSocketChannel(Path socket) {
    this(socket, DEFAULT_TIMEOUT);
  }

  public UnixSocketChannel(Path socket, Duration timeout) {
    this.socket = Objects.requireNonNull(socket, "socket");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * Starts, on daemon threads, one-time set-up of the JDK that a command's first request waits
   * for, so that it runs on another core while the command parses its options and slurm.conf.
   * <ul>
   * <li>Unix domain sockets: the JDK makes a SecureRandom (for socket file names it never needs
   * here), which loads the security properties and providers: the longest of these.
   * <li>java.util.logging, which protobuf's CodedOutputStream asks for a logger on first use.
   * The logger is asked for here by name: no protobuf class is initialised on this thread, so
   * it cannot wait on the main thread's class initialisation. (Its provider lookup opens the
   * class path's jars, which protobuf's set-up on the main thread would open otherwise.)
   * <li>The JDK's network set-up (sun.nio.ch.Net), which reading a reply starts: the buffered
   * stream asks the socket how much is available. A TCP socket's opening starts it the same way.
   * <li>Classes of ours that the first request initialises and that need nothing of the main
   * thread's: the I/O deadline timer and the error table.
   * </ul>
   */
  public static void prepareInBackground() {
    start(UnixSocketChannel::prepareSocket, "corral-unix-socket-setup");
    start(UnixSocketChannel::prepareTheRest, "corral-start-up-setup");
  }

  private static void start(Runnable task, String name) {
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    t.start();
  }

  private static void prepareSocket() {
    try {
      SocketChannel.open(StandardProtocolFamily.UNIX).close();
    } catch (IOException | UnsupportedOperationException e) {
      // no Unix sockets here: the command's own connect reports it
    }
  }

  private static void prepareTheRest() {
    java.util.logging.Logger.getLogger("com.google.protobuf.CodedOutputStream");
    try {
      SocketChannel.open().close();
    } catch (IOException | UnsupportedOperationException e) {
      // no TCP here: only a warm-up
    }
    SlurmError.fromCode(0);
    try {
      Class.forName(Deadline.class.getName(), true, Deadline.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e); // our own class: never
    }
  }

  @Override
  public Response call(Request request) throws IOException {
    String target = "unix socket " + socket;
    return RpcCall.decode(RpcCall.exchange(StandardProtocolFamily.UNIX,
        UnixDomainSocketAddress.of(socket), target, RpcCall.plainEnvelope(request), timeout),
        target);
  }

  @Override
  public String toString() {
    return "UnixSocketChannel[" + socket + "]";
  }
}

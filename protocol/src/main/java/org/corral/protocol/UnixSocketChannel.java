package org.corral.protocol;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
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
   * Starts, on a daemon thread, the JDK's one-time set-up of Unix domain sockets, so that it
   * runs on another core while the command parses its options and slurm.conf. That set-up makes
   * a SecureRandom (for socket file names it never needs here), which loads the security
   * properties and providers: about a tenth of a short command's time, otherwise spent in line.
   */
  public static void prepareInBackground() {
    Thread t = new Thread(UnixSocketChannel::prepare, "corral-unix-socket-setup");
    t.setDaemon(true);
    t.start();
  }

  private static void prepare() {
    try {
      SocketChannel.open(StandardProtocolFamily.UNIX).close();
    } catch (IOException | UnsupportedOperationException e) {
      // no Unix sockets here: the command's own connect reports it
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

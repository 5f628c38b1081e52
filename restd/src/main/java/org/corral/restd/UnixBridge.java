package org.corral.restd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.net.ExtendedSocketOptions;
import org.corral.protocol.UserDirectory;

/**
 * slurmrestd's Unix socket (rest_auth/local). The JDK's HTTP server speaks TCP only, so each
 * Unix-socket client is relayed to a private loopback server over a connection of its own, and
 * the kernel's uid of the client (SO_PEERCRED) is recorded under that connection's local port:
 * the server asks {@link #uidOf} who is behind a remote address. Connections that did not come
 * through the bridge are unknown to it and get -1 (they must present a token).
 */
final class UnixBridge implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmrestd");

  private final Path path;
  private final ServerSocketChannel listener;
  private final Map<Integer, Integer> uidByPort = new ConcurrentHashMap<>();
  private volatile InetSocketAddress target;
  private volatile boolean closed;

  UnixBridge(Path path) throws IOException {
    this.path = path;
    Files.deleteIfExists(path);
    listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    listener.bind(UnixDomainSocketAddress.of(path));
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
  }

  /** Starts relaying to the loopback server at {@code target}. */
  void start(InetSocketAddress target) {
    this.target = target;
    Thread.ofVirtual().name("restd-unix").start(this::acceptLoop);
  }

  int uidOf(InetSocketAddress remote) {
    if (remote == null || !remote.getAddress().isLoopbackAddress()) {
      return -1;
    }
    return uidByPort.getOrDefault(remote.getPort(), -1);
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        SocketChannel client = listener.accept();
        Thread.ofVirtual().start(() -> relay(client));
      } catch (IOException e) {
        if (!closed) {
          LOG.log(Level.ERROR, "unix socket accept failed: " + e);
        }
        return;
      }
    }
  }

  private void relay(SocketChannel client) {
    int port = -1;
    try (client; SocketChannel upstream = SocketChannel.open()) {
      String user = client.getOption(ExtendedSocketOptions.SO_PEERCRED).user().getName();
      int uid = user.matches("[0-9]+") ? Integer.parseInt(user)
          : UserDirectory.system().uid(user).orElseThrow(() -> new IOException("unknown peer user " + user));
      upstream.bind(new InetSocketAddress(target.getAddress(), 0));
      port = ((InetSocketAddress) upstream.getLocalAddress()).getPort();
      uidByPort.put(port, uid); // before connecting, so the server never sees it unknown
      upstream.connect(target);
      Thread back = Thread.ofVirtual().start(() -> copy(upstream, client));
      copy(client, upstream);
      upstream.shutdownOutput();
      back.join();
    } catch (IOException | InterruptedException e) {
      LOG.log(Level.DEBUG, "unix socket client: " + e);
    } finally {
      if (port >= 0) {
        uidByPort.remove(port);
      }
    }
  }

  private static void copy(SocketChannel from, SocketChannel to) {
    ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
    try {
      while (from.read(buf) >= 0) {
        buf.flip();
        while (buf.hasRemaining()) {
          to.write(buf);
        }
        buf.clear();
      }
    } catch (IOException e) {
      // the other side went away
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    Files.deleteIfExists(path);
  }
}

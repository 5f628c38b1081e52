package org.corral.protocol;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.time.Clock;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.auth.SackKiosk;
import org.corral.protocol.auth.UserAuths;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.SackReply;
import org.corral.protocol.msg.SackRequest;

/**
 * The sack socket of a host (AuthType=auth/slurm), served by sackd on a login host and by slurmd
 * on a compute node: local users ask it for credentials and to check replies. Who asks is the
 * kernel's answer (SO_PEERCRED), never the request's; a request is small, so frames are too.
 */
public final class SackServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(SackServer.class.getName());
  /** A request names a receiver, a type and a digest; a verify adds a credential. */
  static final int MAX_FRAME_BYTES = 4096;
  private static final Duration IDLE = Duration.ofSeconds(10);
  private static final int MAX_CONNECTIONS = 256;

  private final SackKiosk kiosk;
  private final Path path;
  private final UserDirectory users;
  private final ServerSocketChannel listener;
  private final Semaphore slots = new Semaphore(MAX_CONNECTIONS);
  private volatile boolean closed;

  private SackServer(SackKiosk kiosk, Path path, UserDirectory users,
      ServerSocketChannel listener) {
    this.kiosk = kiosk;
    this.path = path;
    this.users = users;
    this.listener = listener;
  }

  /** Binds {@code path} (a dead server's socket there is replaced) and starts serving. */
  public static SackServer start(SackKiosk kiosk, Path path) throws IOException {
    Objects.requireNonNull(kiosk, "kiosk");
    SocketDirectory.ensure(path.toAbsolutePath().getParent());
    RpcServer.clearStaleSocket(path);
    ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      listener.bind(UnixDomainSocketAddress.of(path));
      // Every local user may ask; who they are comes from the kernel, not from this mode.
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
    } catch (IOException e) {
      listener.close();
      throw new IOException("cannot listen on sack socket " + path + ": " + e.getMessage(), e);
    }
    SackServer server = new SackServer(kiosk, path, UserDirectory.system(), listener);
    Thread.ofVirtual().name("sack-accept").start(server::acceptLoop);
    return server;
  }

  /**
   * Serves this host's sack socket for {@code cfg}'s cluster when its AuthType is auth/slurm,
   * with the cluster key beside slurm.conf (or the one {@code env}'s SLURM_SACK_KEY names); null for another AuthType.
   *
   * @param issuer this host's name in the credentials (the node's, or the host's for sackd)
   */
  public static SackServer forCluster(SlurmConfig cfg, Map<String, String> env, int slurmUid,
      String issuer, Clock clock) throws IOException {
    if (!"auth/slurm".equals(cfg.authType())) {
      return null;
    }
    return start(UserAuths.kiosk(cfg.path(), env, slurmUid,
        cfg.text(SlurmConfKeys.AUTH_INFO).orElse(null), issuer, clock), SackSocket.of(cfg));
  }

  /** Whether a live server listens on the sack socket {@code path}. */
  public static boolean served(Path path) {
    return RpcServer.someoneListens(path);
  }

  public Path path() {
    return path;
  }

  private void acceptLoop() {
    while (!closed) {
      SocketChannel channel;
      try {
        channel = listener.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.log(Level.ERROR, "sack socket {0}: accept failed, it stops: {1}", path, e);
        }
        return;
      }
      if (!slots.tryAcquire()) {
        LOG.log(Level.WARNING, "sack socket {0}: refused a connection: {1} already open", path,
            MAX_CONNECTIONS);
        closeQuietly(channel);
        continue;
      }
      Thread.ofVirtual().name("sack-conn").start(() -> {
        try (FramedConnection connection = new FramedConnection(channel)) {
          serve(connection);
        } catch (IOException e) {
          LOG.log(Level.DEBUG, "sack connection ended: {0}", e.getMessage());
        } finally {
          slots.release();
        }
      });
    }
  }

  private void serve(FramedConnection connection) throws IOException {
    Peer caller = LocalPeers.of(connection.channel(), users);
    while (true) {
      Envelope frame;
      try {
        frame = connection.read(MAX_FRAME_BYTES, IDLE);
      } catch (ProtocolException e) {
        LOG.log(Level.WARNING, "sack socket: refused a frame of uid {0}: {1}", caller.uid(),
            e.getMessage());
        return;
      }
      if (frame == null) {
        return;
      }
      SackReply reply;
      try {
        reply = kiosk.answer(caller, SackRequest.parseFrom(frame.getBody()));
      } catch (InvalidProtocolBufferException e) {
        reply = SackReply.newBuilder().setError("request does not parse: " + e.getMessage())
            .build();
      }
      if (!reply.getError().isEmpty()) {
        LOG.log(Level.WARNING, "sack socket: refused uid {0}: {1}", caller.uid(),
            reply.getError());
      }
      connection.write(Envelope.newBuilder().setType(frame.getType())
          .setBody(reply.toByteString()).build(), IDLE);
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "could not remove {0}: {1}", path, e.getMessage());
    }
  }
}

package org.corral.protocol;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.corral.common.SlurmError;
import org.corral.protocol.http.HttpHandler;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Response;

/**
 * Serves requests on a TCP address (daemons, every request signed; users of other hosts with a
 * {@link UserAuth} credential) and/or a Unix domain socket
 * (local users, identified by the kernel). One virtual thread per connection; a bad connection
 * is answered with an error and closed without disturbing the others.
 */
public final class RpcServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RpcServer.class.getName());
  private static final int BACKLOG = 512;
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;
  private static final java.time.Duration REFUSAL_TIME = java.time.Duration.ofMillis(500);
  private static final long REFUSAL_DRAIN_BYTES = 64 * 1024;

  private final RpcServerConfig config;
  private final Credentials credentials;
  private final RequestHandler handler;
  private final UserDirectory users;
  private final UserAuth userAuth;
  private final HttpEndpoint http;
  private final ConnectionLedger ledger;
  /** Refusals being answered at once; beyond them a refused connection is just closed. */
  private final Semaphore refusing = new Semaphore(32);
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final List<Thread> acceptors = new ArrayList<>();
  private volatile java.util.function.IntPredicate connectionGate = uid -> true;
  private ServerSocketChannel tcp;
  private ServerSocketChannel unix;
  private volatile boolean closed;

  private RpcServer(RpcServerConfig config, Credentials credentials, RequestHandler handler,
      UserDirectory users, UserAuth userAuth, HttpHandler httpHandler) {
    this.userAuth = userAuth;
    this.http = httpHandler == null ? null : new HttpEndpoint(httpHandler);
    this.config = config;
    this.credentials = credentials;
    this.handler = handler;
    this.users = users;
    this.ledger = new ConnectionLedger(config.maxConnections(), config.peers(), System::nanoTime);
  }

  /**
   * Binds the configured listeners and starts serving.
   *
   * @param credentials signs TCP replies and verifies credentials; may be null only without TCP
   */
  public static RpcServer start(RpcServerConfig config, Credentials credentials,
      RequestHandler handler) throws IOException {
    return start(config, credentials, null, handler);
  }

  /**
   * Binds the configured listeners and starts serving; users on other hosts reach the TCP
   * listener with {@code userAuth}'s credentials (null: daemons only on TCP).
   */
  public static RpcServer start(RpcServerConfig config, Credentials credentials,
      UserAuth userAuth, RequestHandler handler) throws IOException {
    return start(config, credentials, userAuth, handler, null);
  }

  /**
   * As {@link #start(RpcServerConfig, Credentials, UserAuth, RequestHandler)}; a TCP connection
   * that opens with an HTTP request is answered by {@code httpHandler} (null: no HTTP).
   */
  public static RpcServer start(RpcServerConfig config, Credentials credentials,
      UserAuth userAuth, RequestHandler handler, HttpHandler httpHandler) throws IOException {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(handler, "handler");
    if (config.tcpPort() != RpcServerConfig.NO_TCP && credentials == null) {
      throw new IllegalArgumentException("a TCP listener needs credentials");
    }
    RpcServer server = new RpcServer(config, credentials, handler, UserDirectory.system(),
        userAuth, httpHandler);
    try {
      server.bind();
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * Asks {@code admits} before serving each new connection of a local user (not root, not the
   * server's own user): false refuses it with Slurm's rate-limit error (SlurmctldParameters
   * rl_enable also limits connections).
   */
  public void gateConnections(java.util.function.IntPredicate admits) {
    this.connectionGate = Objects.requireNonNull(admits, "admits");
  }

  /** The bound TCP port, or -1 without TCP. */
  public int tcpPort() {
    return tcp == null ? RpcServerConfig.NO_TCP
        : ((InetSocketAddress) tcp.socket().getLocalSocketAddress()).getPort();
  }

  private void bind() throws IOException {
    if (config.tcpPort() != RpcServerConfig.NO_TCP) {
      InetSocketAddress address = config.tcpHost() == null
          ? new InetSocketAddress(config.tcpPort())
          : new InetSocketAddress(config.tcpHost(), config.tcpPort());
      tcp = ServerSocketChannel.open();
      tcp.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      try {
        tcp.bind(address, BACKLOG);
      } catch (IOException e) {
        throw new IOException("cannot listen on " + address + ": " + e.getMessage(), e);
      }
      startAcceptor(tcp, true, "rpc-tcp-" + tcpPort());
    }
    if (config.unixSocket() != null) {
      Path path = config.unixSocket();
      clearStaleSocket(path);
      unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      try {
        unix.bind(UnixDomainSocketAddress.of(path), BACKLOG);
      } catch (IOException e) {
        throw new IOException("cannot listen on unix socket " + path + ": " + e.getMessage(), e);
      }
      // Every local user may connect; who they are comes from the kernel, not from this mode.
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
      startAcceptor(unix, false, "rpc-unix");
    }
  }

  /** Removes a socket left by a dead server; refuses to touch anything else. */
  private static void clearStaleSocket(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    if ((mode & S_IFMT) != S_IFSOCK) {
      throw new IOException("cannot listen on " + path + ": it exists and is not a socket");
    }
    if (someoneListens(path)) {
      throw new IOException("cannot listen on " + path + ": another server is listening there");
    }
    Files.delete(path);
  }

  private static boolean someoneListens(Path socket) {
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      return probe.connect(UnixDomainSocketAddress.of(socket));
    } catch (IOException refused) {
      return false;
    }
  }

  private void startAcceptor(ServerSocketChannel listener, boolean isTcp, String name) {
    acceptors.add(Thread.ofVirtual().name(name).start(() -> acceptLoop(listener, isTcp)));
  }

  private void acceptLoop(ServerSocketChannel listener, boolean isTcp) {
    while (!closed) {
      SocketChannel channel;
      try {
        channel = listener.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.log(Level.ERROR, "accept failed, listener stops: {0}", e.toString());
        }
        return;
      }
      String remote = describe(channel, isTcp);
      Peer local = null;
      ConnectionLedger.Ticket ticket;
      try {
        if (isTcp) {
          ticket = ledger.admitUnauthenticated(hostOf(channel), () -> closeQuietly(channel));
        } else {
          try {
            local = LocalPeers.of(channel, users);
          } catch (IOException e) {
            refuse(channel, false, SlurmError.USER_ID_MISSING,
                "cannot identify the local client: " + e.getMessage());
            continue;
          }
          boolean trusted = ServerConnection.isTrusted(local);
          ticket = trusted ? ledger.admitTrusted("uid " + local.uid()) : ledger.admitUser(local.uid());
          if (!trusted && !connectionGate.test(local.uid())) {
            ledger.release(ticket);
            ledger.log().refused("uid " + local.uid(), "connection rate", "connection refused");
            refuse(channel, false, SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF,
                SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.message());
            continue;
          }
        }
      } catch (ConnectionLedger.Refused r) {
        ledger.log().refused(r.peer, r.limit, r.getMessage() + "; connection refused");
        refuse(channel, isTcp, SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF, r.getMessage());
        continue;
      }
      open.add(channel);
      try {
        if (isTcp) {
          channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        }
        ServerConnection connection = new ServerConnection(new FramedConnection(channel), isTcp,
            remote, local, ledger, ticket, config, credentials, handler, userAuth, http);
        Thread.ofVirtual().name("rpc-conn").start(() -> {
          try {
            connection.run();
          } finally {
            open.remove(channel);
            ledger.release(ticket);
          }
        });
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "could not serve connection from {0}: {1}", remote, e.toString());
        open.remove(channel);
        ledger.release(ticket);
        closeQuietly(channel);
      }
    }
  }

  /**
   * Answers a connection refused at the door with why, on a thread of its own so the acceptor
   * goes on; when many are being refused at once, the rest are closed without a word. Over TCP
   * the refusal is signed, so that a daemon believes it.
   */
  private void refuse(SocketChannel channel, boolean isTcp, SlurmError error, String why) {
    if (!refusing.tryAcquire()) {
      closeQuietly(channel);
      return;
    }
    Thread.ofVirtual().name("rpc-refuse").start(() -> {
      try (FramedConnection c = new FramedConnection(channel)) {
        Response r = Responses.error(error, why);
        int type = r.getBodyCase().getNumber();
        c.write(isTcp ? credentials.sealReply(type, r.toByteArray())
            : Envelope.newBuilder().setType(type).setBody(r.toByteString()).build(), REFUSAL_TIME);
        c.finishAfterError(REFUSAL_DRAIN_BYTES, REFUSAL_TIME);
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.DEBUG, "could not send a refusal: {0}", e.toString());
      } finally {
        refusing.release();
      }
    });
  }

  /** The remote address of a TCP connection without its port: the peer its limits count by. */
  private static String hostOf(SocketChannel channel) {
    try {
      return ((InetSocketAddress) channel.getRemoteAddress()).getAddress().getHostAddress();
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String describe(SocketChannel channel, boolean isTcp) {
    if (!isTcp) {
      return "unix socket client";
    }
    try {
      return String.valueOf(channel.getRemoteAddress());
    } catch (IOException e) {
      return "unknown TCP peer";
    }
  }

  /** Stops listening, closes every connection and removes the Unix socket file. */
  @Override
  public void close() {
    closed = true;
    closeQuietly(tcp);
    closeQuietly(unix);
    for (SocketChannel channel : open) {
      closeQuietly(channel);
    }
    for (Thread acceptor : acceptors) {
      try {
        acceptor.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (unix != null) {
      try {
        Files.deleteIfExists(config.unixSocket());
      } catch (IOException e) {
        LOG.log(Level.WARNING, "could not remove {0}: {1}", config.unixSocket(), e.toString());
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception ignored) {
      // Closing on the way out: nothing useful to do about a failure.
    }
  }
}

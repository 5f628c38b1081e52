package org.corral.protocol;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.Objects;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * A daemon's channel to another daemon: requests are signed, replies must be signed too.
 * Connections are kept for the next call (a few, for a while), since a TCP connection and a
 * server thread per message cost both daemons more than the message itself. Keep one channel
 * per peer to benefit. A burst of calls (the controller launching a node's share of an array)
 * waits briefly for one of a few connections rather than opening one each, only to close all but
 * the kept ones after.
 */
public final class TcpChannel implements RpcChannel {
  /** Connections to the peer that calls share; also how many are kept idle. */
  private static final int CONNECTIONS = 4;
  /**
   * How long a call waits for a shared connection before it opens one of its own: a slow call
   * (a Prolog the peer runs before answering) must not hold the others up for long.
   */
  private static final Duration SHARE_WAIT = Duration.ofMillis(200);
  /** Well below the servers' idle timeout (RpcServerConfig, 30 s), after which they hang up. */
  private static final long REUSE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private record IdleConnection(FramedConnection connection, long since) {}

  private final ArrayDeque<IdleConnection> idle = new ArrayDeque<>();
  private final Semaphore shared = new Semaphore(CONNECTIONS);
  private final String host;
  private final int port;
  private final String receiver;
  private final Credentials credentials;
  private final Duration timeout;
  private final long shareWaitNanos;

  /** @param receiver the peer's name, as its credentials say ("slurmctld", a node's name...) */
  public TcpChannel(String host, int port, String receiver, Credentials creds, Duration timeout) {
    this(host, port, receiver, creds, timeout, SHARE_WAIT);
  }

  TcpChannel(String host, int port, String receiver, Credentials creds, Duration timeout,
      Duration shareWait) {
    this.shareWaitNanos = shareWait.toNanos();
    this.host = Objects.requireNonNull(host, "host");
    this.port = port;
    this.receiver = Objects.requireNonNull(receiver, "receiver");
    this.credentials = Objects.requireNonNull(creds, "creds");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range 1-65535");
    }
  }

  @Override
  public Response call(Request request) throws IOException {
    boolean share;
    try {
      share = shared.tryAcquire(shareWaitNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException(SlurmError.CONNECTION_ERROR, "interrupted", e);
    }
    try {
      return exchange(request);
    } finally {
      if (share) {
        shared.release();
      }
    }
  }

  private Response exchange(Request request) throws IOException {
    String target = host + ":" + port;
    Envelope sealed = credentials.seal(receiver, RpcCall.typeOf(request), request.toByteArray());
    Envelope reply = null;
    FramedConnection connection = takeIdle();
    if (connection != null) {
      try {
        reply = RpcCall.exchangeOn(connection, target, sealed, timeout);
      } catch (TransportException e) {
        closeQuietly(connection);
        if (e.error() != SlurmError.CONNECTION_ERROR) {
          throw e;
        }
        // The peer closed the kept connection (idle too long, or restarted) before reading
        // this request: it goes once more, on a new connection.
        reply = null;
      }
    }
    if (reply == null) {
      // Resolved per connection, so a node whose address changes is found again.
      InetSocketAddress address = new InetSocketAddress(host, port);
      if (address.isUnresolved()) {
        throw new TransportException(SlurmError.CONNECTION_ERROR,
            "cannot resolve host " + host, null);
      }
      connection = RpcCall.connect(address.getAddress() instanceof Inet6Address
          ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET, address, target, timeout);
      try {
        RpcCall.sendOn(connection, target, Hello.sealed(credentials, receiver), timeout);
        reply = RpcCall.exchangeOn(connection, target, sealed, timeout);
      } catch (TransportException e) {
        closeQuietly(connection);
        throw e;
      }
    }
    keepIdle(connection);
    try {
      credentials.verifyReply(reply, sealed.getCredential().getNonce().toByteArray());
    } catch (AuthException e) {
      throw unverified(reply, target, e);
    }
    return RpcCall.decode(reply, target);
  }

  /** A kept connection young enough that the server has not closed it for idleness. */
  private FramedConnection takeIdle() {
    long now = System.nanoTime();
    synchronized (idle) {
      IdleConnection kept;
      while ((kept = idle.pollLast()) != null) {
        if (now - kept.since() < REUSE_NANOS) {
          return kept.connection();
        }
        closeQuietly(kept.connection());
      }
    }
    return null;
  }

  private void keepIdle(FramedConnection connection) {
    synchronized (idle) {
      if (idle.size() < CONNECTIONS) {
        idle.addLast(new IdleConnection(connection, System.nanoTime()));
        return;
      }
    }
    closeQuietly(connection);
  }

  private static void closeQuietly(FramedConnection connection) {
    try {
      connection.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
  }

  /**
   * A reply we cannot trust. When the peer says it refused our credential we pass on what it
   * said, marked unverified, because that is the usual sign of mismatched keys or clocks.
   */
  private static TransportException unverified(Envelope reply, String target, AuthException e) {
    String hint = "";
    try {
      Response claimed = RpcCall.parse(reply.getBody(), target);
      if (claimed.getErrorCode() == SlurmError.AUTH_CRED_INVALID.code()) {
        hint = "; it says it refused our credential (\"" + claimed.getErrorMessage()
            + "\"): check that both hosts use the same cluster key and agree on the time";
      }
    } catch (TransportException ignored) {
      // Not even a response: nothing to add.
    }
    return new TransportException(SlurmError.AUTH_CRED_INVALID,
        "reply from " + target + " failed authentication: " + e.getMessage() + hint, e);
  }

  @Override
  public String toString() {
    return "TcpChannel[" + receiver + "@" + host + ":" + port + "]";
  }
}

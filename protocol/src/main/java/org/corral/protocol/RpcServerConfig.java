package org.corral.protocol;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how an {@link RpcServer} listens.
 *
 * @param tcpHost address to bind, or null for all interfaces
 * @param tcpPort TCP port, 0 for any free one, {@link #NO_TCP} for no TCP listener
 * @param unixSocket path of the local socket for user commands, or null for none
 * @param maxFrameBytes largest request frame accepted (length field: version plus envelope)
 * @param idleTimeout how long a connection may wait for, or take to send, its next request
 * @param maxConnections connections served at once; further ones are closed at once
 * @param frames smaller limits for unauthenticated TCP connections and local users (never above
 *     {@code maxFrameBytes}, which is what daemons, root and the server's own user may send)
 * @param peers what one user or address may hold of the server (connections, requests in flight)
 */
public record RpcServerConfig(String tcpHost, int tcpPort, Path unixSocket, int maxFrameBytes,
    Duration idleTimeout, int maxConnections, FrameLimits frames, PeerLimits peers) {
  public static final int NO_TCP = -1;
  public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_CONNECTIONS = 1024;

  public RpcServerConfig {
    if (tcpPort < NO_TCP || tcpPort > 65535) {
      throw new IllegalArgumentException("tcpPort " + tcpPort + " is out of range 0-65535 (or -1)");
    }
    if (tcpPort == NO_TCP && unixSocket == null) {
      throw new IllegalArgumentException("an RPC server needs a TCP port or a Unix socket");
    }
    if (maxFrameBytes <= FrameCodec.VERSION_BYTES) {
      throw new IllegalArgumentException("maxFrameBytes must be above 2, got " + maxFrameBytes);
    }
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("idleTimeout must be positive, got " + idleTimeout);
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be at least 1");
    }
    Objects.requireNonNull(frames, "frames");
    Objects.requireNonNull(peers, "peers");
  }

  /** With the default {@link PeerLimits}. */
  public RpcServerConfig(String tcpHost, int tcpPort, Path unixSocket, int maxFrameBytes,
      Duration idleTimeout, int maxConnections, FrameLimits frames) {
    this(tcpHost, tcpPort, unixSocket, maxFrameBytes, idleTimeout, maxConnections, frames,
        PeerLimits.DEFAULT);
  }

  /** With the default {@link FrameLimits}. */
  public RpcServerConfig(String tcpHost, int tcpPort, Path unixSocket, int maxFrameBytes,
      Duration idleTimeout, int maxConnections) {
    this(tcpHost, tcpPort, unixSocket, maxFrameBytes, idleTimeout, maxConnections,
        FrameLimits.DEFAULT);
  }

  /** Default limits for the given listeners. */
  public static RpcServerConfig defaults(String tcpHost, int tcpPort, Path unixSocket) {
    return new RpcServerConfig(tcpHost, tcpPort, unixSocket, DEFAULT_MAX_FRAME_BYTES,
        DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS);
  }

  /** Default limits, TCP only. */
  public static RpcServerConfig tcp(String tcpHost, int tcpPort) {
    return defaults(tcpHost, tcpPort, null);
  }

  /** Default limits, Unix socket only. */
  public static RpcServerConfig unix(Path unixSocket) {
    return defaults(null, NO_TCP, unixSocket);
  }

  public RpcServerConfig withMaxFrameBytes(int bytes) {
    return new RpcServerConfig(tcpHost, tcpPort, unixSocket, bytes, idleTimeout, maxConnections,
        frames, peers);
  }

  public RpcServerConfig withIdleTimeout(Duration timeout) {
    return new RpcServerConfig(tcpHost, tcpPort, unixSocket, maxFrameBytes, timeout,
        maxConnections, frames, peers);
  }

  public RpcServerConfig withMaxConnections(int max) {
    return new RpcServerConfig(tcpHost, tcpPort, unixSocket, maxFrameBytes, idleTimeout, max,
        frames, peers);
  }

  public RpcServerConfig withFrames(FrameLimits limits) {
    return new RpcServerConfig(tcpHost, tcpPort, unixSocket, maxFrameBytes, idleTimeout,
        maxConnections, limits, peers);
  }

  public RpcServerConfig withPeers(PeerLimits limits) {
    return new RpcServerConfig(tcpHost, tcpPort, unixSocket, maxFrameBytes, idleTimeout,
        maxConnections, frames, limits);
  }
}

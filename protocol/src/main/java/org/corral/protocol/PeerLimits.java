package org.corral.protocol;

import java.time.Duration;
import java.util.Objects;

/**
 * How much of an {@link RpcServer} one peer may hold, so that no user starves the others or the
 * node daemons (ADR 0011). A peer is a local user (uid, from the kernel), a user of another host
 * (uid, from its MUNGE credential), or, before a TCP connection has proved who it is, its remote
 * address. Daemons (a signed hello or request), root and the server's own user are not limited
 * per peer and may also use the {@link #reservedForDaemons} connections no user can take.
 *
 * @param connectionsPerPeer connections one user (or one address, unauthenticated) may hold
 * @param inFlightPerPeer requests of one user handled at once; more wait their turn
 * @param unauthenticatedPerAddress TCP connections from one address that have not yet proved who
 *     they are
 * @param reservedForDaemons connections of the server's whole limit only daemons, root and the
 *     server's own user may use (at most half of it is reserved, whatever this says)
 * @param helloTimeout how long a TCP connection may take to prove who it is (its first frame)
 * @param logInterval a limit that bites is logged once per peer in this interval
 */
public record PeerLimits(int connectionsPerPeer, int inFlightPerPeer, int unauthenticatedPerAddress,
    int reservedForDaemons, Duration helloTimeout, Duration logInterval) {
  public static final PeerLimits DEFAULT =
      new PeerLimits(256, 32, 128, 512, Duration.ofSeconds(10), Duration.ofSeconds(60));

  public PeerLimits {
    if (connectionsPerPeer < 1 || inFlightPerPeer < 1 || unauthenticatedPerAddress < 1
        || reservedForDaemons < 0) {
      throw new IllegalArgumentException("peer limits must be positive (the reserve at least 0)");
    }
    Objects.requireNonNull(helloTimeout, "helloTimeout");
    Objects.requireNonNull(logInterval, "logInterval");
    if (helloTimeout.isNegative() || helloTimeout.isZero()) {
      throw new IllegalArgumentException("helloTimeout must be positive, got " + helloTimeout);
    }
  }

  public PeerLimits withConnectionsPerPeer(int n) {
    return new PeerLimits(n, inFlightPerPeer, unauthenticatedPerAddress, reservedForDaemons,
        helloTimeout, logInterval);
  }

  public PeerLimits withInFlightPerPeer(int n) {
    return new PeerLimits(connectionsPerPeer, n, unauthenticatedPerAddress, reservedForDaemons,
        helloTimeout, logInterval);
  }

  public PeerLimits withUnauthenticatedPerAddress(int n) {
    return new PeerLimits(connectionsPerPeer, inFlightPerPeer, n, reservedForDaemons,
        helloTimeout, logInterval);
  }

  public PeerLimits withReservedForDaemons(int n) {
    return new PeerLimits(connectionsPerPeer, inFlightPerPeer, unauthenticatedPerAddress, n,
        helloTimeout, logInterval);
  }

  public PeerLimits withHelloTimeout(Duration timeout) {
    return new PeerLimits(connectionsPerPeer, inFlightPerPeer, unauthenticatedPerAddress,
        reservedForDaemons, timeout, logInterval);
  }

  /**
   * These limits with Corral's SlurmctldParameters/SlurmdbdParameters extensions applied:
   * {@code max_conns_per_user=N}, {@code max_rpcs_per_user=N} (in flight),
   * {@code max_unauth_conns_per_addr=N}, {@code daemon_conns_reserved=N} and
   * {@code hello_timeout=SECONDS}; other parameters are not ours and are left alone.
   *
   * @throws IllegalArgumentException for one of ours whose value is not a positive number
   */
  public PeerLimits withParameters(String parameters) {
    PeerLimits out = this;
    if (parameters == null) {
      return out;
    }
    for (String p : parameters.split(",")) {
      int eq = p.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String key = p.substring(0, eq).trim().toLowerCase(java.util.Locale.ROOT);
      String value = p.substring(eq + 1).trim();
      out = switch (key) {
        case "max_conns_per_user" -> out.withConnectionsPerPeer(positive(key, value));
        case "max_rpcs_per_user" -> out.withInFlightPerPeer(positive(key, value));
        case "max_unauth_conns_per_addr" -> out.withUnauthenticatedPerAddress(positive(key, value));
        case "daemon_conns_reserved" -> out.withReservedForDaemons(positive(key, value));
        case "hello_timeout" -> out.withHelloTimeout(Duration.ofSeconds(positive(key, value)));
        default -> out;
      };
    }
    return out;
  }

  private static int positive(String key, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("invalid " + key + "=" + value + ": not a positive number");
  }
}

package org.corral.protocol;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * Counts an {@link RpcServer}'s connections by peer and admits or refuses each against
 * {@link PeerLimits}: the server's whole limit, the part of it reserved for daemons, one user's
 * (or one unauthenticated address's) share, and one user's requests in flight. A TCP connection
 * starts unauthenticated, charged to its address, and moves to its user or to the daemons once it
 * has proved who it is.
 */
final class ConnectionLedger {
  enum Kind { DAEMON, USER, UNAUTHENTICATED }

  /** Refused by a limit: {@link #peer} and {@link #limit} say whose and which (for the log). */
  static final class Refused extends Exception {
    final String peer;
    final String limit;

    Refused(String peer, String limit, String message) {
      super(message, null, false, false);
      this.peer = peer;
      this.limit = limit;
    }
  }

  /** One admitted connection; released exactly once. */
  final class Ticket {
    private Kind kind;
    private String peer;
    private boolean released;
    /** Closes the connection when a newer one from its address needs its place. */
    private Runnable evict = () -> { };

    Kind kind() {
      return kind;
    }

    String peer() {
      return peer;
    }
  }

  /** A place among a user's requests in flight, given back by {@link #close}. */
  interface Permit extends AutoCloseable {
    @Override
    void close();
  }

  /** A user's or an address's connections, and its requests being handled. */
  private static final class Share {
    int connections;
    final Semaphore inFlight;
    /** An address's connections that have not yet said who they are, oldest first. */
    final ArrayDeque<Ticket> unauthenticated = new ArrayDeque<>();

    Share(int inFlight) {
      this.inFlight = new Semaphore(inFlight);
    }
  }

  private final int maxConnections;
  private final int userCapacity;
  private final PeerLimits limits;
  private final LimitLog log;
  private final Map<String, Share> shares = new HashMap<>();
  private int total;
  private int users;

  ConnectionLedger(int maxConnections, PeerLimits limits, LongSupplier nanos) {
    this.maxConnections = maxConnections;
    this.limits = limits;
    int reserved = Math.min(limits.reservedForDaemons(), maxConnections / 2);
    this.userCapacity = Math.max(1, maxConnections - reserved);
    this.log = new LimitLog(limits.logInterval(), nanos);
  }

  LimitLog log() {
    return log;
  }

  /** Root, the server's own user: only the server's whole limit applies. */
  synchronized Ticket admitTrusted(String peer) throws Refused {
    checkTotal(peer);
    total++;
    Ticket t = new Ticket();
    t.kind = Kind.DAEMON;
    t.peer = peer;
    return t;
  }

  synchronized Ticket admitUser(int uid) throws Refused {
    String peer = userKey(uid);
    checkTotal(peer);
    checkUser(peer, uid);
    total++;
    return charge(new Ticket(), Kind.USER, peer);
  }

  /**
   * A TCP connection that has not yet said who it is, charged to its address. When the address
   * already has its share of such connections, the oldest of them is closed to make room: a
   * daemon on a host whose users flood the server still gets in, and says who it is at once,
   * while the flood only shortens its own connections' lives.
   *
   * @param evict closes this connection if a newer one from its address needs its place
   */
  Ticket admitUnauthenticated(String address, Runnable evict) throws Refused {
    String peer = "address " + address;
    Ticket oldest = null;
    Ticket t;
    synchronized (this) {
      Share s = shares.get(peer);
      if (s != null && s.connections >= limits.unauthenticatedPerAddress()
          && !s.unauthenticated.isEmpty()) {
        oldest = s.unauthenticated.peekFirst();
        release(oldest);
      }
      checkTotal(peer);
      total++;
      t = charge(new Ticket(), Kind.UNAUTHENTICATED, peer);
      t.evict = evict;
    }
    if (oldest != null) {
      log.refused(peer, "unauthenticated connections", "its oldest ones are closed (limit "
          + limits.unauthenticatedPerAddress() + ")");
      oldest.evict.run();
    }
    return t;
  }

  /** As {@link #admitUnauthenticated(String, Runnable)}, for a connection nothing can close. */
  Ticket admitUnauthenticated(String address) throws Refused {
    return admitUnauthenticated(address, () -> { });
  }

  /** The connection proved a daemon's identity: it leaves its address's share. */
  synchronized void becomeDaemon(Ticket t) {
    if (t.kind == Kind.DAEMON || t.released) {
      return;
    }
    discharge(t);
    t.kind = Kind.DAEMON;
    t.peer = "daemons";
  }

  /** The connection proved a user's identity (MUNGE): it moves to that user's share, if it fits. */
  synchronized void becomeUser(Ticket t, int uid) throws Refused {
    String peer = userKey(uid);
    if (t.released || t.kind == Kind.DAEMON || peer.equals(t.peer)) {
      return;
    }
    checkUser(peer, uid);
    discharge(t);
    charge(t, Kind.USER, peer);
  }

  synchronized void release(Ticket t) {
    if (t.released) {
      return;
    }
    t.released = true;
    total--;
    discharge(t);
  }

  /**
   * Waits for one of the user's in-flight places (none for daemons); the returned permit gives it
   * back. A user who already has every place in use is logged (once per interval).
   */
  Permit startRequest(Ticket t) throws InterruptedException {
    Share s;
    synchronized (this) {
      s = t.kind == Kind.DAEMON || t.released ? null : shares.get(t.peer);
    }
    if (s == null) {
      return () -> { };
    }
    if (!s.inFlight.tryAcquire()) {
      log.refused(t.peer, "requests in flight", "its further requests wait (limit "
          + limits.inFlightPerPeer() + ")");
      s.inFlight.acquire();
    }
    Semaphore held = s.inFlight;
    return held::release;
  }

  synchronized int open() {
    return total;
  }

  synchronized int openBy(String peer) {
    Share s = shares.get(peer);
    return s == null ? 0 : s.connections;
  }

  static String userKey(int uid) {
    return "uid " + uid;
  }

  private void checkTotal(String peer) throws Refused {
    if (total >= maxConnections) {
      throw new Refused(peer, "server connections",
          "the server has " + maxConnections + " connections open, its limit");
    }
  }

  private void checkUser(String peer, int uid) throws Refused {
    Share s = shares.get(peer);
    if (s != null && s.connections >= limits.connectionsPerPeer()) {
      throw new Refused(peer, "connections per user",
          "too many connections from uid " + uid + " (" + limits.connectionsPerPeer() + ")");
    }
    if (users >= userCapacity) {
      throw new Refused(peer, "user connections",
          "users hold " + userCapacity + " connections, all the server gives users");
    }
  }

  private Ticket charge(Ticket t, Kind kind, String peer) {
    t.kind = kind;
    t.peer = peer;
    Share s = shares.computeIfAbsent(peer, p -> new Share(limits.inFlightPerPeer()));
    s.connections++;
    if (kind == Kind.UNAUTHENTICATED) {
      s.unauthenticated.addLast(t);
    }
    if (kind == Kind.USER) {
      users++;
    }
    return t;
  }

  private void discharge(Ticket t) {
    if (t.kind == Kind.DAEMON) {
      return;
    }
    if (t.kind == Kind.USER) {
      users--;
    }
    Share s = shares.get(t.peer);
    if (s != null && t.kind == Kind.UNAUTHENTICATED) {
      s.unauthenticated.remove(t);
    }
    if (s != null && --s.connections == 0) {
      shares.remove(t.peer); // no connection left, so none of its requests is in flight
    }
  }
}

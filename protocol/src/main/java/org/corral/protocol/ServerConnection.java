package org.corral.protocol;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.function.IntUnaryOperator;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * Serves one accepted connection: reads requests, authenticates them, answers them, and closes
 * the connection at the first thing that is wrong with it.
 */
final class ServerConnection implements Runnable {
  private static final System.Logger LOG = System.getLogger(RpcServer.class.getName());
  /** How much of a refused request's remainder we read away so our error reply arrives. */
  private static final long DRAIN_BYTES = 1024 * 1024;
  private static final Duration DRAIN_TIME = Duration.ofSeconds(1);
  private static final String SELF = System.getProperty("user.name");

  private final FramedConnection connection;
  private final boolean tcp;
  private final String remote;
  private final RpcServerConfig config;
  private final Credentials credentials;
  private final RequestHandler handler;
  private final Peer local;
  private final ConnectionLedger ledger;
  private final ConnectionLedger.Ticket ticket;
  private final UserAuth userAuth;
  private final HttpEndpoint http;
  /** The daemon whose signed hello opened this TCP connection, or null before it. */
  private String greetedBy;
  /** The user whose MUNGE hello opened this TCP connection (frames by type, as a local user's). */
  private Peer greetedUser;

  /**
   * A reply, whether the connection ends after it, and the user request it answers when that
   * came with a user credential over TCP (its reply is sealed for that user's command).
   */
  private record Outcome(Response response, boolean close, UserAuth.Verified user) {
    Outcome(Response response, boolean close) {
      this(response, close, null);
    }
  }

  /**
   * @param local the local user (from the kernel), null for TCP
   * @param ticket this connection's place in the ledger; it moves to its user's or the daemons'
   *     share when a TCP connection proves who it is
   */
  ServerConnection(FramedConnection connection, boolean tcp, String remote, Peer local,
      ConnectionLedger ledger, ConnectionLedger.Ticket ticket, RpcServerConfig config,
      Credentials credentials, RequestHandler handler, UserAuth userAuth, HttpEndpoint http) {
    this.local = local;
    this.ledger = ledger;
    this.ticket = ticket;
    this.userAuth = userAuth;
    this.http = http;
    this.connection = connection;
    this.tcp = tcp;
    this.remote = remote;
    this.config = config;
    this.credentials = credentials;
    this.handler = handler;
  }

  @Override
  public void run() {
    try (connection) {
      if (tcp && http != null
          && HttpEndpoint.looksLikeHttp(connection.peek(4, nextFrameTimeout()))) {
        http.serve(connection, remote);
        return;
      }
      serve(local);
    } catch (SocketTimeoutException e) {
      LOG.log(Level.DEBUG, "closed idle connection from {0}: {1}", remote, e.getMessage());
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "connection from {0} ended: {1}", remote, e.getMessage());
    }
  }

  private void serve(Peer local) throws IOException {
    boolean trustedLocal = local != null && isTrusted(local);
    while (true) {
      Envelope request;
      try {
        IntUnaryOperator limit = frameLimit(local, trustedLocal);
        request = connection.read(frameCeiling(trustedLocal), limit, nextFrameTimeout());
      } catch (ProtocolException e) {
        SlurmError error = !tcp && !trustedLocal && e.frameType() > 0
            ? config.frames().refusalFor(e.frameType()) : e.error();
        if (error != e.error()) { // the user sees Slurm's message alone, the log says why
          LOG.log(Level.INFO, "request of type {0} from uid {1} refused: {2}", e.frameType(),
              local.uid(), e.getMessage());
          refuse(error, error.message());
        } else {
          refuse(error, e.getMessage());
        }
        return;
      }
      if (request == null) {
        return;
      }
      if (tcp && request.getType() == Hello.TYPE) {
        if (greeted(request)) {
          continue;
        }
        return;
      }
      Outcome outcome = answer(request, local);
      connection.write(seal(outcome), config.idleTimeout());
      if (outcome.close) {
        connection.finishAfterError(DRAIN_BYTES, DRAIN_TIME);
        return;
      }
    }
  }

  /**
   * How large the next frame may be: a TCP connection's are small until it has said who it is;
   * local users' by type, unless they are root or the server's own user.
   */
  private IntUnaryOperator frameLimit(Peer local, boolean trustedLocal) {
    int max = config.maxFrameBytes();
    FrameLimits frames = config.frames();
    if (tcp) {
      if (greetedUser != null) {
        return type -> Math.min(max, frames.forUser(type));
      }
      int limit = greetedBy != null ? max : Math.min(max, frames.unauthenticated());
      return type -> limit;
    }
    return trustedLocal ? type -> max : type -> Math.min(max, frames.forUser(type));
  }

  /** The largest frame {@link #frameLimit} allows for any type. */
  private int frameCeiling(boolean trustedLocal) {
    int max = config.maxFrameBytes();
    if (tcp) {
      if (greetedUser != null) {
        return Integer.MAX_VALUE; // checked by type, as a local user's
      }
      return greetedBy != null ? max : Math.min(max, config.frames().unauthenticated());
    }
    // A local user's frame is checked by its type, a few bytes in: its refusal depends on it.
    return trustedLocal ? max : Integer.MAX_VALUE;
  }

  /**
   * A TCP connection that has not proved who it is gets {@link PeerLimits#helloTimeout} for its
   * first frame (a slow or silent one is closed quickly); then the idle timeout applies.
   */
  private java.time.Duration nextFrameTimeout() {
    java.time.Duration hello = config.peers().helloTimeout();
    return ticket.kind() == ConnectionLedger.Kind.UNAUTHENTICATED
        && hello.compareTo(config.idleTimeout()) < 0 ? hello : config.idleTimeout();
  }

  /** Root and the user this server runs as: the ones who may send as much as a daemon. */
  static boolean isTrusted(Peer local) {
    return local.uid() == 0 || SELF.equals(local.userName());
  }

  /**
   * Checks a TCP connection's hello: a daemon's (signed with the cluster key) or a user's on
   * another host (a MUNGE credential bound to it); a bad one is refused and ends the connection.
   */
  private boolean greeted(Envelope hello) {
    try {
      if (!hello.hasCredential() && userAuth != null && userAuth.carriesCredential(hello)) {
        greetedUser = Hello.verifyUser(userAuth, hello);
        ledger.becomeUser(ticket, greetedUser.uid());
      } else {
        greetedBy = Hello.verify(credentials, hello);
        ledger.becomeDaemon(ticket);
      }
      return true;
    } catch (AuthException e) {
      refuse(SlurmError.AUTH_CRED_INVALID, "authentication failed: " + e.getMessage());
      return false;
    } catch (ConnectionLedger.Refused r) {
      refuseOverLimit(r);
      return false;
    }
  }

  private Outcome answer(Envelope envelope, Peer local) {
    Peer peer = local;
    UserAuth.Verified user = null;
    if (tcp && !envelope.hasCredential() && userAuth != null
        && userAuth.carriesCredential(envelope)) {
      try {
        user = userAuth.verify(envelope);
        peer = user.peer();
        ledger.becomeUser(ticket, peer.uid());
      } catch (AuthException e) {
        return reject(SlurmError.AUTH_CRED_INVALID, "authentication failed: " + e.getMessage());
      } catch (ConnectionLedger.Refused r) {
        return overLimit(r);
      }
    } else if (tcp || envelope.hasCredential()) {
      if (credentials == null) {
        return reject(SlurmError.AUTH_CRED_INVALID, "this server accepts no daemon credentials");
      }
      try {
        String sender = credentials.verify(envelope);
        peer = tcp ? Peer.daemon(sender)
            : new Peer(local.uid(), local.gid(), local.userName(), sender);
        if (tcp) {
          ledger.becomeDaemon(ticket);
        }
      } catch (AuthException e) {
        return reject(SlurmError.AUTH_CRED_INVALID, "authentication failed: " + e.getMessage());
      }
    }
    Request request;
    try {
      request = Request.parseFrom(envelope.getBody());
    } catch (InvalidProtocolBufferException e) {
      return reject(SlurmError.INVALID_MESSAGE, "request body does not parse: " + e.getMessage());
    }
    int bodyType = request.getBodyCase().getNumber();
    if (bodyType == 0 || bodyType != envelope.getType()) {
      return reject(SlurmError.INVALID_MESSAGE, "message type " + envelope.getType()
          + " does not match its body (" + (bodyType == 0 ? "none or unknown" : bodyType) + ")");
    }
    return new Outcome(handle(peer, request), false, user);
  }

  /**
   * The handler's answer, once the user has a place among its requests in flight; the handler's
   * failures are ours, so they never end the connection.
   */
  private Response handle(Peer peer, Request request) {
    try (ConnectionLedger.Permit turn = isLongPoll(request) ? () -> { }
        : ledger.startRequest(ticket)) {
      Response response = handler.handle(peer, request, remote);
      if (response != null) {
        return response;
      }
      LOG.log(Level.WARNING, "handler returned no response to {0} request from {1}",
          request.getBodyCase(), remote);
      return Responses.error(SlurmError.UNEXPECTED, "internal error: no response");
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "handler failed on " + request.getBodyCase() + " request from "
          + remote, e);
      return Responses.error(SlurmError.UNEXPECTED,
          "internal error handling the request (details are in the server log)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Responses.error(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF, "the server is closing");
    }
  }

  /**
   * A request that waits for something to happen (an allocation) rather than works: it takes no
   * place among its user's requests in flight, so many sruns waiting do not hold up the user's
   * other commands.
   */
  private static boolean isLongPoll(Request request) {
    return request.getBodyCase() == Request.BodyCase.WAIT_ALLOCATION;
  }

  /** A limit refused the connection once it said who it is: logged once per interval, closed. */
  private Outcome overLimit(ConnectionLedger.Refused r) {
    ledger.log().refused(r.peer, r.limit, r.getMessage() + "; connection closed");
    return new Outcome(Responses.error(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF, r.getMessage()),
        true);
  }

  private void refuseOverLimit(ConnectionLedger.Refused r) {
    Outcome outcome = overLimit(r);
    try {
      connection.write(seal(outcome), config.idleTimeout());
      connection.finishAfterError(DRAIN_BYTES, DRAIN_TIME);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "could not send refusal to {0}: {1}", remote, e.getMessage());
    }
  }

  private Outcome reject(SlurmError error, String why) {
    LOG.log(Level.WARNING, "refused {0} connection from {1}: {2}: {3}",
        tcp ? "TCP" : "local", remote, error.name(), why);
    return new Outcome(Responses.error(error, why), true);
  }

  /** Answers a frame we could not even read, best effort, and ends the connection. */
  private void refuse(SlurmError error, String why) {
    Outcome outcome = reject(error, why);
    try {
      connection.write(seal(outcome), config.idleTimeout());
      connection.finishAfterError(DRAIN_BYTES, DRAIN_TIME);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "could not send refusal to {0}: {1}", remote, e.getMessage());
    }
  }

  /**
   * TCP replies are signed so the calling daemon or user command can trust them; local ones need
   * not be. A refusal of a user's credential goes back plainly: there is nothing to bind it to,
   * and the command reports it as a refusal it could not verify.
   */
  private Envelope seal(Outcome outcome) {
    Response response = outcome.response;
    int type = response.getBodyCase().getNumber();
    if (outcome.user != null) {
      try {
        return userAuth.sealReply(type, response.toByteArray(), outcome.user);
      } catch (AuthException e) {
        LOG.log(Level.WARNING, "cannot seal the reply to {0}: {1}", remote, e.getMessage());
        Response error = Responses.error(SlurmError.AUTH_CRED_INVALID,
            "the server cannot seal its reply: " + e.getMessage());
        return Envelope.newBuilder().setType(error.getBodyCase().getNumber())
            .setBody(error.toByteString()).build();
      }
    }
    if (tcp && credentials != null) {
      return credentials.sealReply(type, response.toByteArray());
    }
    return Envelope.newBuilder().setType(type).setBody(response.toByteString()).build();
  }
}

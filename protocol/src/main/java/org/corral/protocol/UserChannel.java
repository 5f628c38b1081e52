package org.corral.protocol;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.time.Duration;
import java.util.Objects;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * A user command's channel to a daemon on another host: each request carries a credential of
 * the user bound to it and to its receiver (MUNGE's, or one the host's sackd or slurmd minted),
 * and the reply must carry one a daemon sealed, bound to the request. One connection per call: a
 * command makes few.
 */
public final class UserChannel implements RpcChannel {
  private final String host;
  private final int port;
  private final String receiver;
  private final ClientAuth auth;
  private final Duration timeout;

  /** @param receiver the daemon's name, as its credentials must say ("slurmctld", "slurmdbd") */
  public UserChannel(String host, int port, String receiver, ClientAuth auth, Duration timeout) {
    this.host = Objects.requireNonNull(host, "host");
    this.port = port;
    this.receiver = Objects.requireNonNull(receiver, "receiver");
    this.auth = Objects.requireNonNull(auth, "auth");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range 1-65535");
    }
  }

  @Override
  public Response call(Request request) throws IOException {
    String target = host + ":" + port;
    ClientAuth.Sealed sealed;
    try {
      sealed = auth.seal(receiver, RpcCall.typeOf(request), request.toByteArray());
    } catch (AuthException e) {
      throw new TransportException(SlurmError.AUTH_CRED_INVALID,
          "cannot make a credential for " + target + ": " + e.getMessage(), e);
    }
    Envelope reply = sealed.envelope().getSerializedSize() <= FrameLimits.DEFAULT_UNAUTHENTICATED
        ? send(target, sealed.envelope()) : sendAfterHello(target, sealed.envelope());
    try {
      auth.verifyReply(reply, sealed);
    } catch (AuthException e) {
      throw refusedOrUnverified(auth.carriesCredential(reply), reply, target, e);
    }
    return RpcCall.decode(reply, target);
  }

  /** Sends an envelope as it is: also how tests send forged and replayed credentials. */
  public Envelope send(String target, Envelope envelope) throws TransportException {
    InetSocketAddress address = address();
    return RpcCall.exchange(familyOf(address), address, target, envelope, timeout);
  }

  /**
   * Sends a request larger than a connection may send before it proves who it is: a hello with
   * the user's credential first, on the same connection (one more credential, so only for large requests).
   */
  private Envelope sendAfterHello(String target, Envelope envelope) throws TransportException {
    Envelope hello;
    try {
      hello = auth.seal(receiver, Hello.TYPE, new byte[0]).envelope();
    } catch (AuthException e) {
      throw new TransportException(SlurmError.AUTH_CRED_INVALID,
          "cannot make a credential for " + target + ": " + e.getMessage(), e);
    }
    InetSocketAddress address = address();
    try (FramedConnection connection = RpcCall.connect(familyOf(address), address, target, timeout)) {
      RpcCall.sendOn(connection, target, hello, timeout);
      return RpcCall.exchangeOn(connection, target, envelope, timeout);
    } catch (TransportException e) {
      throw e;
    } catch (IOException e) { // closing
      throw new TransportException(SlurmError.CONNECTION_ERROR,
          "connection to " + target + " failed: " + e.getMessage(), e);
    }
  }

  private InetSocketAddress address() throws TransportException {
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (address.isUnresolved()) {
      throw new TransportException(SlurmError.CONNECTION_ERROR, "cannot resolve host " + host,
          null);
    }
    return address;
  }

  private static StandardProtocolFamily familyOf(InetSocketAddress address) {
    return address.getAddress() instanceof Inet6Address
        ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
  }

  /**
   * A reply we cannot trust. A server that refused our credential answers unsealed (it has no
   * verified request to bind to): we pass on what it said, marked as such.
   */
  private static TransportException refusedOrUnverified(boolean sealed, Envelope reply,
      String target, AuthException e) {
    if (!sealed) {
      try {
        Response claimed = RpcCall.parse(reply.getBody(), target);
        if (claimed.getErrorCode() == SlurmError.AUTH_CRED_INVALID.code()) {
          return new TransportException(SlurmError.AUTH_CRED_INVALID, target
              + " refused our credential (unverified reply): " + claimed.getErrorMessage(), e);
        }
      } catch (TransportException ignored) {
        // not even a response
      }
    }
    return new TransportException(SlurmError.AUTH_CRED_INVALID,
        "reply from " + target + " failed authentication: " + e.getMessage(), e);
  }

  @Override
  public String toString() {
    return "UserChannel[" + receiver + "@" + host + ":" + port + "]";
  }
}

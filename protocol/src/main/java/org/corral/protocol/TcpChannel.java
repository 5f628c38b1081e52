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

/** A daemon's channel to another daemon: requests are signed, replies must be signed too. */
public final class TcpChannel implements RpcChannel {
  private final String host;
  private final int port;
  private final Credentials credentials;
  private final Duration timeout;

  public TcpChannel(String host, int port, Credentials creds, Duration timeout) {
    this.host = Objects.requireNonNull(host, "host");
    this.port = port;
    this.credentials = Objects.requireNonNull(creds, "creds");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range 1-65535");
    }
  }

  @Override
  public Response call(Request request) throws IOException {
    String target = host + ":" + port;
    Envelope sealed = credentials.seal(RpcCall.typeOf(request), request.toByteArray());
    // Resolved per call, so a node whose address changes is found again.
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (address.isUnresolved()) {
      throw new TransportException(SlurmError.CONNECTION_ERROR,
          "cannot resolve host " + host, null);
    }
    Envelope reply = RpcCall.exchange(address.getAddress() instanceof Inet6Address
        ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET, address, target, sealed,
        timeout);
    try {
      credentials.verifyReply(reply);
    } catch (AuthException e) {
      throw unverified(reply, target, e);
    }
    return RpcCall.decode(reply, target);
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
    return "TcpChannel[" + host + ":" + port + "]";
  }
}

package org.corral.protocol.auth;

import java.util.Objects;
import java.util.Set;
import org.corral.protocol.AuthException;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.SackMint;
import org.corral.protocol.msg.SackReply;
import org.corral.protocol.msg.SackVerify;
import org.corral.protocol.msg.SackRequest;

/**
 * What a host's sack socket answers (Slurm's "auth and cred kiosk"): a local user gets a
 * credential for themselves alone, bound to one request to slurmctld or slurmdbd; and learns
 * whether a reply's credential was sealed by a daemon for the request it made from this host.
 */
public final class SackKiosk {
  /** The daemons users send requests to; the rest (slurmd) take daemons' credentials only. */
  public static final Set<String> USER_RECEIVERS = Set.of("slurmctld", "slurmdbd");
  private static final int SHA256_BYTES = 32;

  private final SackCredentials credentials;
  private final String issuer;

  /** @param issuer this host's name in the credentials it mints (node or host name) */
  public SackKiosk(SackCredentials credentials, String issuer) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.issuer = Objects.requireNonNull(issuer, "issuer");
    if (issuer.isEmpty()) {
      throw new IllegalArgumentException("a sack issuer needs a name");
    }
  }

  public String issuer() {
    return issuer;
  }

  /** The answer to {@code caller} (the kernel's identity of the socket's peer). */
  public SackReply answer(Peer caller, SackRequest request) {
    return switch (request.getOpCase()) {
      case MINT -> mint(caller, request.getMint());
      case VERIFY -> verify(request.getVerify());
      case OP_NOT_SET -> error("the request asks for nothing");
    };
  }

  private SackReply mint(Peer caller, SackMint m) {
    if (!USER_RECEIVERS.contains(m.getReceiver())) {
      return error("no credential for \"" + m.getReceiver() + "\": users send requests to "
          + String.join(" and ", USER_RECEIVERS.stream().sorted().toList()) + " only");
    }
    if (m.getBodySha256().size() != SHA256_BYTES || m.getType() == 0) {
      return error("a credential needs the request's type and the SHA-256 of its body");
    }
    return SackReply.newBuilder().setCredential(credentials.make(
        new SackCredentials.Claims(false, caller.uid(), caller.gid(), issuer, m.getReceiver(),
            null), m.getType(), m.getBodySha256().toByteArray())).build();
  }

  private SackReply verify(SackVerify v) {
    try {
      credentials.check(v.getCredential(), true, issuer, v.getType(),
          v.getBodySha256().toByteArray(), v.getRequestNonce().toByteArray());
      return SackReply.getDefaultInstance();
    } catch (AuthException e) {
      return error(e.getMessage());
    }
  }

  private static SackReply error(String why) {
    return SackReply.newBuilder().setError(why).build();
  }
}

package org.corral.ctld.runtime;

import org.corral.protocol.OnBehalf;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.OnBehalfRequest;

/**
 * Who a request from slurmrestd counts for. slurmrestd authenticates REST clients (JWT, or the
 * peer uid on its Unix socket) and forwards their requests wrapped in an
 * {@link OnBehalfRequest}; the controller answers the inner request as that user, with that
 * user's rights and no more. Only a verified credential whose sender is {@value #SENDER} may
 * wrap: a local user's request (no credential) or another daemon's is refused, so nobody can
 * claim to be someone else by sending one. The rule itself is {@link OnBehalf}'s, shared with
 * slurmdbd. See docs/adr/0003-rest-identity.md.
 */
final class RestIdentity {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  static final String SENDER = OnBehalf.SENDER;

  private RestIdentity() {}

  /**
   * The user {@code wrapped} is made for, as a plain local user (never a daemon), or a refusal.
   *
   * @throws SlurmException ACCESS_DENIED when the sender is not slurmrestd or the inner
   *     request wraps again; USER_ID_MISSING when the user is unknown
   */
  static Peer of(Peer sender, OnBehalfRequest wrapped, UserDirectory users) {
    try {
      return OnBehalf.resolve(sender, wrapped, users, LOG);
    } catch (OnBehalf.Refused e) {
      throw new SlurmException(e.error(), e.getMessage());
    }
  }
}

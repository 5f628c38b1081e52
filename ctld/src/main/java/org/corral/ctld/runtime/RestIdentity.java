package org.corral.ctld.runtime;

import java.lang.System.Logger.Level;
import java.util.OptionalInt;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.OnBehalfRequest;

/**
 * Who a request from slurmrestd counts for. slurmrestd authenticates REST clients (JWT, or the
 * peer uid on its Unix socket) and forwards their requests wrapped in an
 * {@link OnBehalfRequest}; the controller answers the inner request as that user, with that
 * user's rights and no more. Only a verified credential whose sender is {@value #SENDER} may
 * wrap: a local user's request (no credential) or another daemon's is refused, so nobody can
 * claim to be someone else by sending one. See docs/adr/0003-rest-identity.md.
 */
final class RestIdentity {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  static final String SENDER = "slurmrestd";

  private RestIdentity() {}

  /**
   * The user {@code wrapped} is made for, as a plain local user (never a daemon), or a refusal.
   *
   * @throws SlurmException ACCESS_DENIED when the sender is not slurmrestd or the inner
   *     request wraps again; USER_ID_MISSING when the user is unknown
   */
  static Peer of(Peer sender, OnBehalfRequest wrapped, UserDirectory users) {
    if (!SENDER.equals(sender.daemon())) {
      LOG.log(Level.WARNING, "Security violation: on-behalf-of request from "
          + (sender.isDaemon() ? "daemon " + sender.daemon() : "uid " + sender.uid()));
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
    if (!wrapped.hasRequest() || wrapped.getRequest().hasOnBehalf()) {
      throw new SlurmException(SlurmError.ACCESS_DENIED, "an on-behalf-of request must wrap one user request");
    }
    int uid;
    String name;
    if (wrapped.hasUid()) {
      uid = wrapped.getUid();
      name = users.userName(uid).orElseThrow(() -> new SlurmException(SlurmError.USER_ID_MISSING));
    } else {
      name = wrapped.getUserName();
      OptionalInt found = name.isEmpty() ? OptionalInt.empty() : users.uid(name);
      uid = found.orElseThrow(() -> new SlurmException(SlurmError.USER_ID_MISSING));
    }
    int gid = users.primaryGid(name).orElseThrow(() -> new SlurmException(SlurmError.USER_ID_MISSING));
    return new Peer(uid, gid, name, null);
  }
}

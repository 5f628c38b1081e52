package org.corral.protocol;

import java.lang.System.Logger.Level;
import java.util.OptionalInt;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.OnBehalfRequest;

/**
 * Who a request from slurmrestd counts for, decided the same way by every daemon that serves
 * slurmrestd (the controller and slurmdbd). slurmrestd authenticates REST clients (JWT, or the
 * peer uid on its Unix socket) and forwards their requests wrapped in an {@link OnBehalfRequest};
 * the daemon answers the inner request as that user, with that user's rights and no more. Only
 * a verified credential whose sender is {@value #SENDER} may wrap: a local user's request (no
 * credential) or another daemon's is refused, so nobody can claim to be someone else by sending
 * one. See docs/adr/0003-rest-identity.md.
 */
public final class OnBehalf {
  public static final String SENDER = "slurmrestd";

  /** A wrapper refused: ACCESS_DENIED (wrong sender, nested wrapper) or USER_ID_MISSING. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient SlurmError error;

    Refused(SlurmError error, String message) {
      super(message);
      this.error = error;
    }

    public SlurmError error() {
      return error;
    }
  }

  private OnBehalf() {}

  /**
   * The user {@code wrapped} is made for, as a plain local user (never a daemon).
   *
   * @param log the daemon's logger, for the security violation a wrong sender is
   */
  public static Peer resolve(Peer sender, OnBehalfRequest wrapped, UserDirectory users, System.Logger log)
      throws Refused {
    if (!SENDER.equals(sender.daemon())) {
      log.log(Level.WARNING, "Security violation: on-behalf-of request from "
          + (sender.isDaemon() ? "daemon " + sender.daemon() : "uid " + sender.uid()));
      throw new Refused(SlurmError.ACCESS_DENIED, SlurmError.ACCESS_DENIED.message());
    }
    if (!wrapped.hasRequest() || wrapped.getRequest().hasOnBehalf()) {
      throw new Refused(SlurmError.ACCESS_DENIED, "an on-behalf-of request must wrap one user request");
    }
    int uid;
    String name;
    if (wrapped.hasUid()) {
      uid = wrapped.getUid();
      name = users.userName(uid).orElseThrow(() -> missing());
    } else {
      name = wrapped.getUserName();
      OptionalInt found = name.isEmpty() ? OptionalInt.empty() : users.uid(name);
      uid = found.orElseThrow(OnBehalf::missing);
    }
    int gid = users.primaryGid(name).orElseThrow(OnBehalf::missing);
    return new Peer(uid, gid, name, null);
  }

  private static Refused missing() {
    return new Refused(SlurmError.USER_ID_MISSING, SlurmError.USER_ID_MISSING.message());
  }
}

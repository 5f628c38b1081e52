package org.corral.dbd.assoc;

import org.corral.common.SlurmError;

/** A change refused: by the rules of the association tree or by the caller's rights. */
public final class AcctException extends Exception {
  private static final long serialVersionUID = 1L;
  private final transient SlurmError error;

  public AcctException(SlurmError error, String message) {
    super(message, null, false, false);
    this.error = error;
  }

  public SlurmError error() {
    return error;
  }
}

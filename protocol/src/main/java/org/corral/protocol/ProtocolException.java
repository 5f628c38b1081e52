package org.corral.protocol;

import java.util.Objects;
import org.corral.common.SlurmError;

/** Bytes on a connection that are not a valid frame; carries the Slurm error to answer with. */
public final class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient SlurmError error;

  public ProtocolException(SlurmError error, String message) {
    super(message);
    this.error = Objects.requireNonNull(error, "error");
  }

  public ProtocolException(SlurmError error, String message, Throwable cause) {
    super(message, cause);
    this.error = Objects.requireNonNull(error, "error");
  }

  public SlurmError error() {
    return error;
  }
}

package org.corral.protocol;

import java.io.IOException;
import java.util.Objects;
import org.corral.common.SlurmError;

/** An RPC that failed on the way (connect, timeout, framing, authentication), with Slurm's code. */
public final class TransportException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient SlurmError error;

  public TransportException(SlurmError error, String message, Throwable cause) {
    super(message, cause);
    this.error = Objects.requireNonNull(error, "error");
  }

  public SlurmError error() {
    return error;
  }
}

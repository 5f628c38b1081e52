package org.corral.ctld.runtime;

import org.corral.common.SlurmError;

/** A request refused with one of Slurm's error numbers; becomes the error response. */
public final class SlurmException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient SlurmError error;

  public SlurmException(SlurmError error) {
    this(error, error.message());
  }

  public SlurmException(SlurmError error, String message) {
    super(message);
    this.error = error;
  }

  public SlurmError error() {
    return error;
  }
}

package org.corral.restd;

import org.corral.common.SlurmError;

/** A request answered with an HTTP status and one of Slurm's errors in the envelope. */
final class RestError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final int status;
  final int errorNumber;
  final String error;

  RestError(int status, SlurmError e, String description) {
    this(status, e.code(), e.message(), description);
  }

  RestError(int status, int errorNumber, String error, String description) {
    super(description);
    this.status = status;
    this.errorNumber = errorNumber;
    this.error = error;
  }
}

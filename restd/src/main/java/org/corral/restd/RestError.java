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

  /** A field whose JSON value has a type its reader cannot take (an object for a string, ...). */
  static RestError wrongType(tools.jackson.databind.exc.JsonNodeException e) {
    return new RestError(400, SlurmError.REST_FAIL_PARSING,
        "a field has a value of the wrong type: " + e.getOriginalMessage());
  }
}

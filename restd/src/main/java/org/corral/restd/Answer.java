package org.corral.restd;

import org.corral.protocol.dataparser.Envelope;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;

/** One response being built: its HTTP status, its fields, and the envelope's errors and warnings. */
final class Answer {
  int status = 200;
  final JsonObject body = new JsonObject();
  final JsonArray errors = new JsonArray();
  final JsonArray warnings = new JsonArray();

  /** Adds one of Slurm's errors (v0.0.42_openapi_error) and sets the status. */
  Answer error(int httpStatus, int number, String error, String description, String source) {
    status = httpStatus;
    errors.add(Envelope.error(description, number, error, source));
    return this;
  }

  Answer warning(String description, String source) {
    warnings.add(Envelope.warning(description, source));
    return this;
  }
}

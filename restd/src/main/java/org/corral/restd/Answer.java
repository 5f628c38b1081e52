package org.corral.restd;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** One response being built: its HTTP status, its fields, and the envelope's errors and warnings. */
final class Answer {
  int status = 200;
  final ObjectNode body = Json.object();
  final ArrayNode errors = Json.array();
  final ArrayNode warnings = Json.array();

  /** Adds one of Slurm's errors (v0.0.42_openapi_error) and sets the status. */
  Answer error(int httpStatus, int number, String error, String description, String source) {
    status = httpStatus;
    ObjectNode e = errors.addObject();
    e.put("description", description);
    e.put("error_number", number);
    e.put("error", error);
    e.put("source", source);
    return this;
  }

  Answer warning(String description, String source) {
    ObjectNode w = warnings.addObject();
    w.put("description", description);
    w.put("source", source);
    return this;
  }
}

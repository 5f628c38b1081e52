package org.corral.restd;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One recorded request and its answer, as fixtures/pairs.json lists it: the asset's name (after
 * Slurm-web's: slurm-job-running, slurmdb-qos, ...), the data_parser version, the request (method,
 * path with its query, body, which credentials: root, none, invalid, expired) and the answer's
 * status and content type; the answer's body (masked) is in VERSION/NAME.json (.txt when not
 * JSON).
 */
record FixtureExchange(String name, String version, String method, String path, JsonNode requestBody,
    String auth, int status, String contentType, String body) {

  /** The operation a request reaches, if any (the path's version picks v0.0.42's or v0.0.41's). */
  static java.util.Optional<Routes.Route> route(String method, String pathAndQuery) {
    String path = pathAndQuery.replaceAll("\\?.*", "");
    return Routes.all().stream().filter(r -> r.method().equals(method) && r.pattern().matcher(path).matches())
        .findFirst();
  }

  boolean json() {
    return contentType.startsWith("application/json");
  }

  /** The body's file under the fixtures folder. */
  String file() {
    return version + "/" + name + (json() ? ".json" : ".txt");
  }

  /** The answer's body, masked when it is JSON (as stored). */
  String maskedBody() {
    return json() ? Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(
        FixtureMask.apply(Json.MAPPER.readTree(body))) + "\n" : body;
  }

  /** The pairs.json entry: everything but the answer's body (the request's masked as answers are). */
  ObjectNode entry() {
    ObjectNode e = JsonNodeFactory.instance.objectNode();
    e.put("name", name);
    e.put("version", version);
    ObjectNode req = e.putObject("request");
    req.put("method", method);
    req.put("path", path);
    req.put("auth", auth);
    req.set("body", requestBody == null ? null : FixtureMask.apply(requestBody));
    ObjectNode resp = e.putObject("response");
    resp.put("status", status);
    resp.put("content-type", contentType);
    resp.put("file", file());
    return e;
  }
}

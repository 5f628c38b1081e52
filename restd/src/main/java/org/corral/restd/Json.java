package org.corral.restd;

import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson's mapper, for what clients send (request bodies) and the OpenAPI document. Responses
 * are built with the shared data_parser mapping ({@code org.corral.protocol.dataparser}).
 */
final class Json {
  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}

  /** A request body as JSON (an empty body reads as {}); malformed JSON is the client's error (400). */
  static tools.jackson.databind.JsonNode object(byte[] body) {
    tools.jackson.databind.JsonNode doc;
    try {
      doc = body.length == 0 ? MAPPER.createObjectNode() : MAPPER.readTree(body);
    } catch (tools.jackson.core.JacksonException e) {
      throw new RestError(400, org.corral.common.SlurmError.REST_FAIL_PARSING,
          "request body is not JSON: " + e.getOriginalMessage());
    }
    if (doc == null || !doc.isObject()) {
      throw new RestError(400, org.corral.common.SlurmError.REST_FAIL_PARSING, "request body must be a JSON object");
    }
    return doc;
  }

  /** v0.0.42's csv_string: an array of names joined with commas, or the string as sent. */
  static String csv(tools.jackson.databind.JsonNode v) {
    if (!v.isArray()) {
      return v.asString();
    }
    StringBuilder sb = new StringBuilder();
    v.forEach(x -> sb.append(sb.isEmpty() ? "" : ",").append(x.asString()));
    return sb.toString();
  }

  /**
   * A whole number sent as a JSON number or a string of digits; anything else, or a number
   * beyond 64 bits, is the client's error (400), never a failure of ours.
   */
  static long whole(tools.jackson.databind.JsonNode v, String field) {
    if (v != null && v.isIntegralNumber() && v.canConvertToLong()) {
      return v.asLong();
    }
    if (v != null && v.isString() && v.asString().matches("-?[0-9]{1,19}")) {
      try {
        return Long.parseLong(v.asString());
      } catch (NumberFormatException e) {
        // beyond 64 bits: refused below
      }
    }
    throw new RestError(400, org.corral.common.SlurmError.REST_FAIL_PARSING,
        "field " + field + " must be a whole number within 64 bits");
  }

  /** A path segment as the client meant it (percent-decoded). */
  static String pathPart(String raw) {
    return java.net.URLDecoder.decode(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
  }
}

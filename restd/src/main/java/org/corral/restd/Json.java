package org.corral.restd;

import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson's mapper, for what clients send (request bodies) and the OpenAPI document. Responses
 * are built with the shared data_parser mapping ({@code org.corral.protocol.dataparser}).
 */
final class Json {
  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}

  /** A path segment as the client meant it (percent-decoded). */
  static String pathPart(String raw) {
    return java.net.URLDecoder.decode(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
  }
}

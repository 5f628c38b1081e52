package org.corral.protocol.http;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP request as a daemon's port received it: its method, path (without the query), query
 * string, headers by lower-case name, and the peer's address.
 */
public record HttpRequest(String method, String path, String query, Map<String, String> headers,
    String remote) {
  public HttpRequest {
    headers = Map.copyOf(headers);
  }

  /** A header's value by its name in any case. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }
}

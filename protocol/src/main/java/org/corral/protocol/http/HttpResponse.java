package org.corral.protocol.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** What an {@link HttpHandler} answers: a status, a content type and the body. */
public record HttpResponse(int status, String contentType, byte[] body, Map<String, String> headers) {
  public static final String TEXT = "text/plain; charset=utf-8";

  public HttpResponse {
    headers = Map.copyOf(headers);
  }

  public static HttpResponse ok(String contentType, String body) {
    return new HttpResponse(200, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  /** An error status with a one-line explanation as its body. */
  public static HttpResponse error(int status, String why) {
    return new HttpResponse(status, TEXT, (why + "\n").getBytes(StandardCharsets.UTF_8), Map.of());
  }

  public HttpResponse withHeader(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(name, value);
    return new HttpResponse(status, contentType, body, h);
  }

  /** The status line's reason phrase. */
  public String reason() {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 414 -> "URI Too Long";
      case 431 -> "Request Header Fields Too Large";
      case 503 -> "Service Unavailable";
      default -> status < 500 ? "Client Error" : "Server Error";
    };
  }
}

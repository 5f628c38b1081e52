package org.corral.protocol;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.corral.protocol.http.HttpHandler;
import org.corral.protocol.http.HttpRequest;
import org.corral.protocol.http.HttpResponse;

/**
 * HTTP on an RPC port: a TCP connection whose first bytes are an HTTP method (never the start of
 * a frame, whose length would be over a gigabyte) gets one request answered, then is closed.
 * Hostile input is bounded: the request line and headers together at most {@link #MAX_HEAD_BYTES}
 * and {@link #HEAD_TIME} to arrive (a slow sender is cut off), the answer {@link #WRITE_TIME} to
 * leave, and at most {@link #MAX_AT_ONCE} requests served at once (others get 503 at once).
 */
final class HttpEndpoint {
  private static final System.Logger LOG = System.getLogger(RpcServer.class.getName());
  static final int MAX_HEAD_BYTES = 8192;
  static final int MAX_HEADERS = 64;
  static final Duration HEAD_TIME = Duration.ofSeconds(10);
  static final Duration WRITE_TIME = Duration.ofSeconds(30);
  static final int MAX_AT_ONCE = 32;

  private final HttpHandler handler;
  private final Semaphore slots = new Semaphore(MAX_AT_ONCE);

  HttpEndpoint(HttpHandler handler) {
    this.handler = handler;
  }

  /** Whether a connection's first four bytes start an HTTP request (capital letters and a space). */
  static boolean looksLikeHttp(byte[] first) {
    if (first.length < 4) {
      return false;
    }
    for (byte b : first) {
      if (!(b >= 'A' && b <= 'Z') && b != ' ') {
        return false;
      }
    }
    return first[0] != ' ';
  }

  /** Reads one request, answers it and returns; the caller closes the connection. */
  void serve(FramedConnection connection, String remote) {
    if (!slots.tryAcquire()) {
      write(connection, remote, null, HttpResponse.error(503, "too many metrics requests at once"));
      return;
    }
    try {
      Parsed parsed = readHead(connection, remote);
      if (parsed.error != null) {
        write(connection, remote, null, parsed.error);
        return;
      }
      HttpRequest request = parsed.request;
      HttpResponse response;
      if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
        response = HttpResponse.error(405, "only GET and HEAD are served here").withHeader("Allow", "GET, HEAD");
      } else {
        try {
          response = handler.handle(request);
        } catch (RuntimeException e) {
          LOG.log(Level.WARNING, "HTTP handler failed on " + request.path() + " from " + remote, e);
          response = HttpResponse.error(500, "internal error (details are in the server log)");
        }
      }
      write(connection, remote, request, response);
    } finally {
      slots.release();
    }
  }

  private record Parsed(HttpRequest request, HttpResponse error) {}

  private static Parsed readHead(FramedConnection connection, String remote) {
    byte[] head;
    Deadline deadline = Deadline.after(HEAD_TIME, connection.channel());
    try (deadline) {
      head = readUntilBlankLine(connection.input());
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "HTTP request from {0} not read: {1}", remote,
          deadline.expired() ? "not complete after " + HEAD_TIME.toSeconds() + " s" : e.getMessage());
      return new Parsed(null, HttpResponse.error(408, "request not complete in time"));
    }
    if (head == null) {
      return new Parsed(null, HttpResponse.error(431, "request line and headers over "
          + MAX_HEAD_BYTES + " bytes"));
    }
    return parse(new String(head, StandardCharsets.ISO_8859_1), remote);
  }

  /** The bytes up to the blank line that ends the headers; null when over the limit. */
  private static byte[] readUntilBlankLine(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    int newlines = 0;
    while (out.size() < MAX_HEAD_BYTES) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed within the request headers");
      }
      out.write(b);
      if (b == '\n') {
        if (++newlines == 2) {
          return out.toByteArray();
        }
      } else if (b != '\r') {
        newlines = 0;
      }
    }
    return null;
  }

  static Parsed parse(String head, String remote) {
    String[] lines = head.split("\r?\n");
    String[] requestLine = lines[0].split(" ");
    if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/1.")
        || !requestLine[1].startsWith("/")) {
      return new Parsed(null, HttpResponse.error(400, "malformed request line"));
    }
    if (lines.length - 1 > MAX_HEADERS) {
      return new Parsed(null, HttpResponse.error(431, "more than " + MAX_HEADERS + " headers"));
    }
    Map<String, String> headers = new HashMap<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isEmpty()) {
        continue;
      }
      int colon = lines[i].indexOf(':');
      if (colon <= 0) {
        return new Parsed(null, HttpResponse.error(400, "malformed header line"));
      }
      headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim(), (a, b) -> a + ", " + b);
    }
    String target = requestLine[1];
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q + 1);
    return new Parsed(new HttpRequest(requestLine[0], path, query, headers, remote), null);
  }

  private static void write(FramedConnection connection, String remote, HttpRequest request,
      HttpResponse response) {
    boolean head = request != null && request.method().equals("HEAD");
    StringBuilder sb = new StringBuilder(256);
    sb.append("HTTP/1.1 ").append(response.status()).append(' ').append(response.reason()).append("\r\n")
        .append("Content-Type: ").append(response.contentType()).append("\r\n")
        .append("Content-Length: ").append(response.body().length).append("\r\n")
        .append("Connection: close\r\n");
    response.headers().forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
    sb.append("\r\n");
    Deadline deadline = Deadline.after(WRITE_TIME, connection.channel());
    try (deadline) {
      OutputStream out = connection.output();
      out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (!head) {
        out.write(response.body());
      }
      out.flush();
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "HTTP answer to {0} not sent: {1}", remote, e.getMessage());
      return;
    }
    // what a refused request still sends is read away (bounded), so the answer is not lost to a reset
    connection.finishAfterError(4L * MAX_HEAD_BYTES, Duration.ofSeconds(1));
  }
}

package org.corral.restd;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The web dashboard's files under {@code /dashboard/}: a fixed set read once from slurmrestd's
 * jar (nothing is fetched from elsewhere, by the server or the browser). They are public, as a
 * login page is: every piece of data comes from the authenticated API, with the token the page
 * keeps in sessionStorage.
 */
final class DashboardFiles {
  static final String ROOT = "/dashboard/";
  private static final Map<String, String> TYPES = Map.of(
      "index.html", "text/html; charset=utf-8",
      "dashboard.js", "text/javascript; charset=utf-8",
      "dashboard.css", "text/css; charset=utf-8",
      "uPlot.iife.min.js", "text/javascript; charset=utf-8",
      "uPlot.min.css", "text/css; charset=utf-8",
      "uPlot.LICENSE", "text/plain; charset=utf-8");
  private static final Map<String, byte[]> FILES = load();

  private DashboardFiles() {}

  private static Map<String, byte[]> load() {
    Map<String, byte[]> files = new java.util.HashMap<>();
    for (String name : TYPES.keySet()) {
      try (InputStream in = DashboardFiles.class.getResourceAsStream("dashboard/" + name)) {
        if (in == null) {
          throw new IllegalStateException("slurmrestd's jar lacks dashboard/" + name);
        }
        files.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Map.copyOf(files);
  }

  static boolean serves(String path) {
    return path.equals("/dashboard") || path.startsWith(ROOT);
  }

  /** The file, index.html for the directory itself (the page's views are #fragments), else 404. */
  static void send(HttpExchange x, String path, String method) throws IOException {
    if (path.equals("/dashboard")) {
      x.getResponseHeaders().set("Location", ROOT);
      x.sendResponseHeaders(301, -1);
      return;
    }
    String name = path.substring(ROOT.length());
    if (name.isEmpty()) {
      name = "index.html";
    }
    byte[] body = FILES.get(name);
    if (body == null || !(method.equals("GET") || method.equals("HEAD"))) {
      byte[] text = (body == null ? "no such file\n" : "method not allowed\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
      x.getResponseHeaders().set("Content-Type", "text/plain");
      x.sendResponseHeaders(body == null ? 404 : 405, text.length);
      try (OutputStream os = x.getResponseBody()) {
        os.write(text);
      }
      return;
    }
    var h = x.getResponseHeaders();
    h.set("Content-Type", TYPES.get(name));
    // The page runs only its own scripts and talks only to this server.
    h.set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
        + " frame-ancestors 'none'");
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Referrer-Policy", "no-referrer");
    h.set("Cache-Control", "no-cache");
    if (method.equals("HEAD")) {
      x.sendResponseHeaders(200, -1);
      return;
    }
    x.sendResponseHeaders(200, body.length);
    try (OutputStream os = x.getResponseBody()) {
      os.write(body);
    }
  }
}

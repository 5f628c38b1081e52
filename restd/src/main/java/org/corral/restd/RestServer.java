package org.corral.restd;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import org.corral.common.SlurmError;
import org.corral.protocol.TransportException;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.dataparser.Envelope;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.dataparser.JsonWriter;

/**
 * The HTTP side of slurmrestd on the JDK's server, one virtual thread per exchange: finds the
 * operation, authenticates, answers in Slurm's envelope ({@code meta}, {@code errors},
 * {@code warnings}) with {@code Content-Type: application/json}.
 */
final class RestServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmrestd");
  static final String NOT_FOUND = "Unable find requested URL. Please view /openapi/v3 for API reference.";

  private final HttpServer http;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Routes.Apis apis;
  private final Authenticator auth;
  private final ToIntFunction<InetSocketAddress> localUid;
  private final byte[] openapi;
  private final UserDirectory users = UserDirectory.system();
  private final java.util.concurrent.ConcurrentHashMap<String, String> groups = new java.util.concurrent.ConcurrentHashMap<>();
  private final BulkReads bulkReads = new BulkReads(Runtime.getRuntime().maxMemory());
  private final int maxBody;

  /**
   * @param localUid the kernel uid of the client behind a remote address (Unix-socket clients
   *     reach this server through {@link UnixBridge}), or -1
   */
  static {
    // Without TCP_NODELAY small responses wait on the client's delayed ACK (tens of ms each).
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  RestServer(InetSocketAddress address, Routes.Apis apis, Authenticator auth,
      ToIntFunction<InetSocketAddress> localUid, byte[] openapi, int maxBody) throws IOException {
    this.maxBody = maxBody;
    this.apis = apis;
    this.auth = auth;
    this.localUid = localUid;
    this.openapi = openapi;
    this.http = HttpServer.create(address, 1024);
    http.setExecutor(executor);
    http.createContext("/", this::exchange);
    http.start();
  }

  InetSocketAddress address() {
    return http.getAddress();
  }

  private void exchange(HttpExchange x) throws IOException {
    try { // not try-with-resources: the exchange must stay open for the catch's 500
      String path = x.getRequestURI().getRawPath();
      String method = x.getRequestMethod().toUpperCase(Locale.ROOT);
      if (path.equals("/openapi/v3") || path.equals("/openapi.json") || path.equals("/openapi")) {
        send(x, 200, "application/json", openapi);
        return;
      }
      if (DashboardFiles.serves(path) && !path.startsWith(DashboardApi.PREFIX)) {
        DashboardFiles.send(x, path, method);
        return;
      }
      Answer out = new Answer();
      String user = null;
      String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
      List<Routes.Route> routes = path.startsWith(DashboardApi.PREFIX) ? DashboardApi.matching(path)
          : Routes.matching(path);
      Routes.Route route = routes.stream().filter(r -> r.method().equals(method)).findFirst().orElse(null);
      String plugin = routes.isEmpty() ? "openapi/slurmctld" : routes.get(0).plugin();
      if (routes.isEmpty()) {
        sendText(x, 404, NOT_FOUND); // plain text, as Slurm's slurmrestd answers an unknown URL
        return;
      } else if (route == null) {
        out.error(405, SlurmError.DATA_PATH_NOT_FOUND.code(), "Method Not Allowed",
            method + " is not supported on " + trimmed, "slurmrestd");
      } else {
        Identity who;
        try {
          who = auth.authenticate(headers(x), localUid.applyAsInt(x.getRemoteAddress()));
          user = who.userName() != null ? who.userName() : users.userName(who.uid()).orElse(String.valueOf(who.uid()));
        } catch (AuthFailure e) {
          LOG.log(Level.INFO, "authentication failure from {0}: {1}", x.getRemoteAddress(), e.getMessage());
          if (!e.credentialsGiven) {
            sendText(x, 401, "Authentication failure");
            return;
          }
          out.error(401, SlurmError.AUTH_CRED_INVALID.code(), "Authentication failure", e.getMessage(), "rest_auth");
          send(x, out, null, plugin, route);
          return;
        }
        byte[] body; // read only once its sender is known, and never beyond the limit
        try {
          body = readBody(x);
        } catch (RestError e) {
          LOG.log(Level.INFO, "refused a request body from {0}: {1}", x.getRemoteAddress(), e.getMessage());
          out.error(e.status, e.errorNumber, e.error, e.getMessage(), "slurmrestd");
          x.getResponseHeaders().set("Connection", "close"); // the rest of the body is not read
          send(x, out, user, plugin, route);
          return;
        }
        Matcher m = route.pattern().matcher(path);
        m.matches();
        Routes.Call call = new Routes.Call(who, query(x.getRequestURI().getRawQuery()), body,
            x.getLocalAddress().getHostString());
        boolean bulk = BulkReads.isBulk(route);
        int turns = bulk ? bulkReads.weight(route) : 0;
        try {
          if (bulk) {
            bulkReads.acquire(turns);
          }
          route.handler().answer(apis, call, m, out);
          if (bulk) { // the document is written while the turn is held: it is most of the memory
            send(x, out, user, plugin, route);
            return;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          out.error(500, SlurmError.UNEXPECTED.code(), SlurmError.UNEXPECTED.message(), "interrupted", "slurmrestd");
        } catch (RestError e) {
          out.error(e.status, e.errorNumber, e.error, e.getMessage(), route.method() + " " + route.specPath());
        } catch (tools.jackson.databind.exc.JsonNodeException e) { // a value of the wrong type: the client's
          RestError r = RestError.wrongType(e);
          out.error(r.status, r.errorNumber, r.error, r.getMessage(), route.method() + " " + route.specPath());
        } catch (TransportException e) {
          out.error(500, e.error().code(), e.error().message(), e.getMessage(), daemon(route));
        } catch (IOException e) {
          SlurmError down = route.plugin().equals("openapi/slurmdbd") ? SlurmError.DB_CONNECTION : SlurmError.CONTROLLER_DOWN;
          out.error(500, down.code(), down.message(), e.getMessage(), daemon(route));
        } finally {
          if (bulk) {
            bulkReads.release(turns);
          }
        }
      }
      send(x, out, user, plugin, route != null ? route : routes.isEmpty() ? null : routes.get(0));
      return;
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "request failed: " + e, e);
      Answer out = new Answer().error(500, SlurmError.UNEXPECTED.code(), SlurmError.UNEXPECTED.message(),
          String.valueOf(e.getMessage()), "slurmrestd");
      send(x, out, null, "openapi/slurmctld", null);
    } finally {
      x.close();
    }
  }

  private static String daemon(Routes.Route route) {
    return route.plugin().equals("openapi/slurmdbd") ? "slurmdbd" : "slurmctld";
  }

  /** Slurm's envelope around {@code out}; a v0.0.41 route's document mapped onto its schemas. */
  private void send(HttpExchange x, Answer out, String user, String plugin, Routes.Route route) throws IOException {
    JsonObject doc = new JsonObject();
    doc.set("meta", meta(x, user, plugin));
    doc.setAll(out.body);
    doc.set("errors", out.errors);
    doc.set("warnings", out.warnings);
    if (route != null && route.v41()) {
      byte[] bytes = JsonWriter.compact(doc).getBytes(StandardCharsets.UTF_8);
      send(x, out.status, "application/json", DataParserV41.adapt(bytes, route));
      return;
    }
    // written as it is made (chunked): a long list never sits whole in memory as text
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(out.status, 0);
    try (java.io.Writer w = new java.io.OutputStreamWriter(
        new java.io.BufferedOutputStream(x.getResponseBody(), 64 * 1024), StandardCharsets.UTF_8)) {
      new JsonWriter(w, false).value(doc).flush();
    }
  }

  /** A plain-text answer (a line), as Slurm's slurmrestd gives before reaching any operation. */
  private static void sendText(HttpExchange x, int status, String line) throws IOException {
    send(x, status, "text/plain", (line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange x, int status, String contentType, byte[] bytes) throws IOException {
    x.getResponseHeaders().set("Content-Type", contentType);
    x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream os = x.getResponseBody()) {
      os.write(bytes);
    }
  }

  /** v0.0.42_openapi_meta. */
  private JsonObject meta(HttpExchange x, String user, String pluginType) {
    boolean dbd = pluginType.equals("openapi/slurmdbd");
    InetSocketAddress remote = x.getRemoteAddress();
    // command: empty for slurmrestd's operations, as in Slurm
    return Envelope.meta(pluginType, dbd ? "Slurm OpenAPI slurmdbd" : "Slurm OpenAPI slurmctld",
        apis.slurmdb().storageType(), "[" + remote.getHostString() + "]:" + remote.getPort(),
        user == null ? "" : user, user == null ? "" : groupOf(user), List.of(), apis.slurm().cluster());
  }

  /** The user's primary group for meta.client.group: looked up once per user, not per request. */
  private String groupOf(String user) {
    String g = groups.get(user);
    if (g == null) {
      g = users.primaryGid(user).stream().boxed().findFirst().flatMap(users::groupName).orElse("");
      if (groups.size() >= 10_000) {
        groups.clear();
      }
      groups.put(user, g);
    }
    return g;
  }

  private static Map<String, List<String>> headers(HttpExchange x) {
    Map<String, List<String>> h = new HashMap<>();
    x.getRequestHeaders().forEach((k, v) -> h.put(k.toLowerCase(Locale.ROOT), v));
    return h;
  }

  static Map<String, String> query(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      q.putIfAbsent(k, v);
    }
    return q;
  }

  /**
   * The request body, refused (413) from its Content-Length before any of it is read when that
   * is over the limit, and as soon as a body without one (chunked) passes the limit.
   */
  private byte[] readBody(HttpExchange x) throws IOException {
    String declared = x.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      long length;
      try {
        length = Long.parseLong(declared.trim());
      } catch (NumberFormatException e) {
        throw new RestError(400, SlurmError.REST_FAIL_PARSING, "invalid Content-Length");
      }
      if (length > maxBody) {
        throw tooLarge();
      }
    }
    byte[] b = x.getRequestBody().readNBytes(maxBody + 1);
    if (b.length > maxBody) {
      throw tooLarge();
    }
    return b;
  }

  private RestError tooLarge() {
    return new RestError(413, SlurmError.DATA_TOO_LARGE, "request body over " + maxBody + " bytes");
  }

  @Override
  public void close() {
    http.stop(0);
    executor.shutdownNow();
  }
}

package org.corral.restd;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every operation slurmrestd answers: the openapi/slurmctld ones ({@link SlurmApi}, over the
 * controller) and the openapi/slurmdbd ones ({@link SlurmdbApi}, over slurmdbd), under v0.0.42 and
 * under v0.0.41 ({@link DataParserV41}). {@link #all()} is
 * also what {@link OpenApiDocument} publishes, so the served spec lists exactly what is answered.
 */
final class Routes {
  private Routes() {}

  /** The two halves of the API a request may reach, and the dashboard's reads over them. */
  record Apis(SlurmApi slurm, SlurmdbApi slurmdb, DashboardApi dashboard) {
    Apis(SlurmApi slurm, SlurmdbApi slurmdb, java.time.Clock clock) {
      this(slurm, slurmdb, new DashboardApi(slurm, slurmdb, clock));
    }
  }

  /** What a handler gets besides the path: who asks, the query, the body. */
  record Call(Identity who, Map<String, String> query, byte[] body, String host) {}

  @FunctionalInterface
  interface Handler<A> {
    void answer(A api, Call call, Matcher path, Answer out) throws IOException;
  }

  /**
   * One operation: method, the spec's path, the pattern its request path matches (a trailing
   * slash optional), the plugin named in meta, how it is answered, and the data_parser version
   * whose schemas its answer follows.
   */
  record Route(String method, String specPath, Pattern pattern, String plugin, Handler<Apis> handler,
      String version) {
    boolean v41() {
      return version.equals(DataParserV41.VERSION);
    }
  }

  /** Every route (built on first use: the APIs' route tables are built through this class). */
  static List<Route> all() {
    return Table.ALL;
  }

  private static final class Table {
    static final List<Route> ALL;

    static {
      List<Route> all = new ArrayList<>(SlurmApi.ROUTES);
      all.addAll(SlurmdbApi.ROUTES);
      all.addAll(DataParserV41.routes(List.copyOf(all)));
      ALL = List.copyOf(all);
    }
  }

  static Route slurm(String method, String specPath, String regex, Handler<SlurmApi> h) {
    return new Route(method, SlurmApi.PREFIX + specPath, Pattern.compile(Pattern.quote(SlurmApi.PREFIX) + regex + "/?"),
        "openapi/slurmctld", (apis, c, m, out) -> h.answer(apis.slurm(), c, m, out), SlurmApi.VERSION);
  }

  static Route slurmdb(String method, String specPath, String regex, Handler<SlurmdbApi> h) {
    return new Route(method, SlurmdbApi.PREFIX + specPath,
        Pattern.compile(Pattern.quote(SlurmdbApi.PREFIX) + regex + "/?"), "openapi/slurmdbd",
        (apis, c, m, out) -> h.answer(apis.slurmdb(), c, m, out), SlurmApi.VERSION);
  }

  /** The routes whose pattern matches the whole request path, whatever their method (404 versus 405). */
  static List<Route> matching(String path) {
    List<Route> found = new ArrayList<>();
    for (Route r : all()) {
      if (r.pattern().matcher(path).matches()) {
        found.add(r);
      }
    }
    return found;
  }
}

package org.corral.ctld.metrics;

import org.corral.protocol.metrics.MetricsText;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.http.HttpHandler;
import org.corral.protocol.http.HttpRequest;
import org.corral.protocol.http.HttpResponse;
import org.corral.protocol.msg.StatsReply;

/**
 * {@code MetricsType=metrics/openmetrics}: the HTTP GET endpoints Slurm 25.11 serves on
 * slurmctld's port, plus Corral's own {@code /metrics/corral}. Every scrape renders from the
 * state the writer last published (and sdiag's counters), so it never waits for the writer or
 * the scheduler. The text is Prometheus' format, or OpenMetrics 1.0 when the scraper's Accept
 * header asks for {@code application/openmetrics-text}.
 */
public final class MetricsEndpoint implements HttpHandler {
  static final List<String> PATHS = List.of("/metrics/jobs", "/metrics/jobs-users-accts", "/metrics/nodes",
      "/metrics/partitions", "/metrics/scheduler", "/metrics/corral");

  private final Supplier<ClusterState> state;
  private final Supplier<StatsReply> stats;
  private final Timings timings;
  private final OutboxAge outbox;
  private final IntFunction<String> userName;
  private final MetricsAccess access;

  MetricsEndpoint(Supplier<ClusterState> state, Supplier<StatsReply> stats, Timings timings, OutboxAge outbox,
      IntFunction<String> userName, MetricsAccess access) {
    this.state = state;
    this.stats = stats;
    this.timings = timings;
    this.outbox = outbox;
    this.userName = userName;
    this.access = access;
  }

  /** The endpoint for a controller configured as given (see {@link MetricsAccess}). */
  public static MetricsEndpoint of(Supplier<ClusterState> state, Supplier<StatsReply> stats, Timings timings,
      OutboxAge outbox, IntFunction<String> userName, String privateData, String parameters,
      Set<String> authUsers, String slurmUser, Function<String, Optional<String>> tokenUser) {
    return new MetricsEndpoint(state, stats, timings, outbox, userName,
        MetricsAccess.of(privateData, parameters, authUsers, slurmUser, tokenUser));
  }

  @Override
  public HttpResponse handle(HttpRequest request) {
    String path = request.path().endsWith("/") && request.path().length() > 1
        ? request.path().substring(0, request.path().length() - 1) : request.path();
    if (!path.equals("/metrics") && !PATHS.contains(path)) {
      return HttpResponse.error(404, "no such endpoint: " + request.path() + " (see /metrics)");
    }
    var refused = access.refusal(request);
    if (refused.isPresent()) {
      return refused.get();
    }
    if (path.equals("/metrics")) {
      return HttpResponse.ok(HttpResponse.TEXT, String.join("\n", PATHS) + "\n");
    }
    boolean openMetrics = request.header("Accept").map(a -> a.contains("application/openmetrics-text"))
        .orElse(false);
    MetricsText out = new MetricsText(openMetrics);
    ClusterState s = state.get();
    switch (path) {
      case "/metrics/jobs" -> SlurmMetrics.jobs(out, s);
      case "/metrics/jobs-users-accts" -> SlurmMetrics.usersAccounts(out, s);
      case "/metrics/nodes" -> SlurmMetrics.nodes(out, s);
      case "/metrics/partitions" -> SlurmMetrics.partitions(out, s);
      case "/metrics/scheduler" -> SlurmMetrics.scheduler(out, stats.get(), s);
      default -> CorralMetrics.write(out, s, timings, outbox, userName);
    }
    return HttpResponse.ok(out.contentType(), out.finish());
  }
}

package org.corral.restd;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.JobEfficiency;
import org.corral.protocol.JobStateNames;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.BatchScriptRequest;
import org.corral.protocol.msg.ClusterUsage;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.UsageReportReply;
import org.corral.protocol.msg.UsageReportRequest;

/**
 * The few JSON reads the web dashboard needs that Slurm's REST API has no operation for, under
 * {@code /dashboard/api/}, authenticated and made for the caller exactly as the REST operations
 * are (docs/adr/0014-dashboard-in-slurmrestd.md): a job's batch script (scontrol write
 * batch_script's rights), its efficiency as seff computes it (from the accounting record sacct
 * would show the caller), the tail of its output (its owner only, read with the owner's rights),
 * its CPU and memory now (from its nodes' metrics), and the cluster's usage per hour from
 * slurmdbd's rollups (sreport's data).
 */
final class DashboardApi {
  static final String PREFIX = "/dashboard/api/";
  static final String PLUGIN = "corral/dashboard";
  /** The most of a job's output shown, from its end. */
  static final int OUTPUT_TAIL = 64 * 1024;
  /** The most nodes whose metrics one request reads (one HTTP GET each, one after another). */
  static final int MAX_METRICS_NODES = 64;
  /** The longest history of hourly usage one request may ask for (a week). */
  static final int MAX_HOURS = 168;
  private static final Pattern SAMPLE =
      Pattern.compile("^(corral_step_cpu_seconds_total|corral_step_memory_rss_bytes)\\{([^}]*)\\} (\\S+)");

  static final List<Routes.Route> ROUTES = List.of(
      route("job/{job_id}/script", "job/([0-9]{1,10})/script", DashboardApi::script),
      route("job/{job_id}/efficiency", "job/([0-9]{1,10})/efficiency", DashboardApi::efficiency),
      route("job/{job_id}/output", "job/([0-9]{1,10})/output", DashboardApi::output),
      route("job/{job_id}/usage", "job/([0-9]{1,10})/usage", DashboardApi::jobUsage),
      route("usage", "usage", DashboardApi::clusterUsage));

  private static Routes.Route route(String specPath, String regex, Routes.Handler<DashboardApi> h) {
    return new Routes.Route("GET", PREFIX + specPath, Pattern.compile(Pattern.quote(PREFIX) + regex + "/?"), PLUGIN,
        (apis, c, m, out) -> h.answer(apis.dashboard(), c, m, out), "dashboard");
  }

  /** The routes whose pattern matches the whole path. */
  static List<Routes.Route> matching(String path) {
    return ROUTES.stream().filter(r -> r.pattern().matcher(path).matches()).toList();
  }

  private final SlurmApi slurm;
  private final SlurmdbApi slurmdb;
  private final Clock clock;
  private final UserDirectory users = UserDirectory.system();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  DashboardApi(SlurmApi slurm, SlurmdbApi slurmdb, Clock clock) {
    this.slurm = slurm;
    this.slurmdb = slurmdb;
    this.clock = clock;
  }

  /** scontrol write batch_script: the controller allows the owner, operators and administrators. */
  private void script(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = slurm.call(c, Request.newBuilder().setBatchScript(BatchScriptRequest.newBuilder()
        .setJobId(SlurmApi.jobId(m.group(1)))).build(), out, "dashboard_job_script");
    out.body.put("script", r.getErrorCode() == 0 ? r.getBatchScript().getScript() : "");
  }

  /** seff's numbers of the accounting record the caller may read (slurmdbd decides, as for sacct). */
  private void efficiency(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = slurmdb.call(c, Request.newBuilder().setJobQuery(JobQueryRequest.newBuilder()
        .addJobIds(m.group(1)).setAllUsers(true).setPageSize(1)).build(), out, "dashboard_job_efficiency");
    if (r.getErrorCode() != 0) {
      return;
    }
    if (r.getJobQuery().getJobsCount() == 0) {
      out.error(404, SlurmError.INVALID_JOB_ID.code(), SlurmError.INVALID_JOB_ID.message(),
          "no accounting record of JobId=" + m.group(1) + " for this user", "dashboard_job_efficiency");
      return;
    }
    AcctJob job = r.getJobQuery().getJobs(0);
    JobEfficiency e = JobEfficiency.of(job, clock.instant().getEpochSecond());
    JsonObject o = out.body.putObject("efficiency");
    o.put("state", JobStateNames.name(job.getState()));
    o.put("cpus", e.ncpus());
    o.put("nodes", e.nnodes());
    o.put("wall_seconds", e.walltime());
    o.put("cpu_seconds", e.cput());
    o.put("core_wall_seconds", e.coreWall());
    o.put("cpu_percent", e.cpuPercent());
    o.put("memory_kib", e.memKb());
    o.put("memory_allocated_kib", e.allocKb());
    o.put("memory_percent", e.memPercent());
  }

  /** The job as the controller shows it to the caller, or null (the refusal in {@code out}). */
  private JobInfo job(Routes.Call c, String id, Answer out, String source) throws IOException {
    Response r = slurm.call(c, Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder()
        .addJobIds(SlurmApi.jobId(id))).build(), out, source);
    if (r.getErrorCode() != 0) {
      return null;
    }
    if (r.getJobInfo().getJobsCount() == 0) {
      out.error(404, SlurmError.INVALID_JOB_ID.code(), SlurmError.INVALID_JOB_ID.message(),
          "Unable to query JobId=" + id, source);
      return null;
    }
    return r.getJobInfo().getJobs(0);
  }

  /**
   * The end of the job's standard output, to its owner only (not to administrators either: the
   * output is the user's file, not the cluster's). slurmrestd as root reads it with the owner's
   * uid, gid and groups (setpriv), so a path the owner may not read stays unread; otherwise only
   * a regular file the owner owns is read.
   */
  private void output(Routes.Call c, Matcher m, Answer out) throws IOException {
    JobInfo job = job(c, m.group(1), out, "dashboard_job_output");
    if (job == null) {
      return;
    }
    OptionalInt caller = c.who().byUid() ? OptionalInt.of(c.who().uid()) : users.uid(c.who().userName());
    if (caller.isEmpty() || caller.getAsInt() != job.getUserId()) {
      out.error(403, SlurmError.ACCESS_DENIED.code(), SlurmError.ACCESS_DENIED.message(),
          "only the job's owner may read its output", "dashboard_job_output");
      return;
    }
    String path = job.getStdOut();
    out.body.put("path", path);
    if (path.isEmpty() || !path.startsWith("/")) {
      out.body.put("output", "");
      out.warning("the job has no output file slurmrestd can name", "dashboard_job_output");
      return;
    }
    try {
      out.body.put("output", OutputTail.read(java.nio.file.Path.of(path), job.getUserId(), job.getGroupId(),
          OUTPUT_TAIL));
    } catch (IOException e) {
      out.body.put("output", "");
      out.warning("cannot read " + path + ": " + e.getMessage(), "dashboard_job_output");
    }
  }

  /**
   * The job's CPU time and resident memory now, summed over its steps on all its nodes, from
   * each node's metrics (slurmd's /metrics, MetricsType set); the browser samples it over time.
   */
  private void jobUsage(Routes.Call c, Matcher m, Answer out) throws IOException {
    JobInfo job = job(c, m.group(1), out, "dashboard_job_usage");
    if (job == null) {
      return;
    }
    out.body.put("time", clock.millis() / 1000.0);
    double cpu = 0;
    double rss = 0;
    int read = 0;
    String label = "job=\"" + Integer.toUnsignedString(job.getJobId()) + "\"";
    List<String> names = job.getNodes().isEmpty() ? List.of() : Hostlist.expand(job.getNodes());
    if (names.size() > MAX_METRICS_NODES) {
      out.warning("the job has " + names.size() + " nodes: only the first " + MAX_METRICS_NODES + " are read",
          "dashboard_job_usage");
      names = names.subList(0, MAX_METRICS_NODES);
    }
    if (!names.isEmpty()) {
      Response r = slurm.call(c, Request.newBuilder().setNodeInfo(NodeInfoRequest.newBuilder().addAllNames(names))
          .build(), out, "dashboard_job_usage");
      for (NodeInfo n : r.getNodeInfo().getNodesList()) {
        String host = n.getAddr().isEmpty() ? n.getName() : n.getAddr();
        String text;
        try {
          text = metrics(host, n.getPort());
        } catch (IOException e) {
          out.warning("node " + n.getName() + ": metrics not reachable: " + e.getMessage(), "dashboard_job_usage");
          continue;
        }
        read++;
        for (String line : text.split("\n")) {
          Matcher s = SAMPLE.matcher(line);
          if (s.find() && (s.group(2).contains("," + label) || s.group(2).startsWith(label))) {
            double v = Double.parseDouble(s.group(3));
            if (s.group(1).startsWith("corral_step_cpu")) {
              cpu += v;
            } else {
              rss += v;
            }
          }
        }
      }
    }
    out.body.put("state", JobStateNames.name(job.getState()));
    out.body.put("nodes_read", read);
    out.body.put("cpu_seconds", cpu);
    out.body.put("memory_rss_bytes", rss);
  }

  private String metrics(String host, int port) throws IOException {
    HttpRequest get = HttpRequest.newBuilder(URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host)
        + ":" + port + "/metrics")).timeout(Duration.ofSeconds(3)).GET().build();
    try {
      HttpResponse<byte[]> r = http.send(get, HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() != 200) {
        throw new IOException("HTTP " + r.statusCode() + " (is MetricsType set?)");
      }
      return new String(r.body(), StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * ?hours=N (1 to a week, 24 by default): the cluster's usage in each whole hour that slurmdbd
   * has rolled up (sreport's cluster utilization: allocated, idle, down and planned CPU-seconds,
   * planned being the CPU time eligible jobs waited), and each association's allocated CPU-seconds
   * over the whole window (sreport's user report; ?user= selects one user). Usage is not private.
   */
  private void clusterUsage(Routes.Call c, Matcher m, Answer out) throws IOException {
    int hours;
    try {
      hours = Integer.parseInt(c.query().getOrDefault("hours", "24"));
    } catch (NumberFormatException e) {
      hours = -1;
    }
    if (hours < 1 || hours > MAX_HOURS) {
      throw new RestError(400, SlurmError.REST_INVALID_QUERY, "hours must be 1 to " + MAX_HOURS);
    }
    String user = c.query().getOrDefault("user", "");
    long now = clock.instant().getEpochSecond();
    long end = now - now % 3600;
    long start = end - hours * 3600L;
    JsonArray points = out.body.putArray("hours");
    for (long h = start; h < end; h += 3600) {
      UsageReportReply r = report(c, h, h + 3600, out);
      if (r == null) {
        return;
      }
      for (ClusterUsage u : r.getClustersList()) {
        JsonObject p = points.addObject();
        p.put("time", h);
        p.put("cpus", u.getCpus());
        p.put("alloc_seconds", u.getAllocSecs());
        p.put("idle_seconds", u.getIdleSecs());
        p.put("down_seconds", u.getDownSecs() + u.getPlannedDownSecs());
        p.put("planned_seconds", u.getPlannedSecs());
        p.put("total_seconds", u.getTotalSecs());
      }
    }
    UsageReportReply whole = report(c, start, end, out);
    JsonArray assocs = out.body.putArray("associations");
    if (whole != null) {
      for (AssocUsage a : whole.getAssocsList()) {
        if (!a.getUser().isEmpty() && (user.isEmpty() || user.equals(a.getUser()))) {
          JsonObject o = assocs.addObject();
          o.put("account", a.getAccount());
          o.put("user", a.getUser());
          o.put("alloc_seconds", a.getAllocSecs());
        }
      }
    }
    out.body.put("start", start);
    out.body.put("end", end);
  }

  private UsageReportReply report(Routes.Call c, long start, long end, Answer out) throws IOException {
    Response r = slurmdb.call(c, Request.newBuilder().setUsageReport(UsageReportRequest.newBuilder()
        .setStart(start).setEnd(end)).build(), out, "dashboard_usage");
    return r.getErrorCode() == 0 ? r.getUsageReport() : null;
  }

  /** Reads the end of a job's output as its owner. */
  static final class OutputTail {
    private OutputTail() {}

    static String read(java.nio.file.Path path, int uid, int gid, int max) throws IOException {
      byte[] bytes;
      if (isRoot()) {
        Process p = new ProcessBuilder("setpriv", "--reuid=" + Integer.toUnsignedString(uid),
            "--regid=" + Integer.toUnsignedString(gid), "--init-groups", "--", "tail", "-c", Integer.toString(max),
            "--", path.toString()).redirectErrorStream(false).start();
        p.getOutputStream().close();
        bytes = p.getInputStream().readNBytes(max);
        String err = new String(p.getErrorStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
        try {
          if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("reading took too long");
          }
        } catch (InterruptedException e) {
          p.destroyForcibly();
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
          throw new IOException(err.isEmpty() ? "tail exited with " + p.exitValue() : err);
        }
      } else {
        var attrs = java.nio.file.Files.readAttributes(path, java.nio.file.attribute.PosixFileAttributes.class,
            java.nio.file.LinkOption.NOFOLLOW_LINKS);
        Object owner = java.nio.file.Files.getAttribute(path, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!attrs.isRegularFile() || !(owner instanceof Integer o) || o != uid) {
          throw new IOException("not a regular file of the job's owner");
        }
        try (var ch = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.READ,
            java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          long size = ch.size();
          ch.position(Math.max(0, size - max));
          java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) Math.min(max, size));
          while (b.hasRemaining() && ch.read(b) > 0) {
            // until full or at the end
          }
          bytes = java.util.Arrays.copyOf(b.array(), b.position());
        }
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }

    private static boolean isRoot() {
      return "root".equals(System.getProperty("user.name"));
    }
  }
}

package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The web dashboard slurmrestd serves at /dashboard/, on a `corral up` cluster whose nodes serve
 * metrics, driven in Debian's headless Chromium by playwright-core (src/test/dashboard,
 * dashboard-scenario.mjs): the owner logs in with the token `scontrol token` gave them, sees the
 * running job in the queue, opens its page and sees its CPU and memory plotted from the node's
 * metrics, its script, output and seff efficiency; another user is refused its output and its
 * cancel (the REST error shown); the owner cancels it. Screenshots are kept in
 * e2e/target/dashboard/. Without Chromium or the npm package the test is skipped, saying which
 * (CORRAL_REQUIRE_BROWSER=1, as .ci/run sets, makes that a failure).
 */
class DashboardTest {
  private static final String CONF = """
      ClusterName=dashboard
      MetricsType=metrics/openmetrics
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core_Memory
      DefMemPerCPU=100
      NodeName=n1 CPUs=2 RealMemory=1000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;
  private static final Path SCENARIO = Path.of("src/test/dashboard").toAbsolutePath();
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static LocalCluster cluster;
  private static String base;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and create users");
    boolean required = "1".equals(System.getenv("CORRAL_REQUIRE_BROWSER"));
    String missing = !Files.isExecutable(CHROMIUM) ? CHROMIUM + " is missing (apt-get install chromium)"
        : !Files.isDirectory(SCENARIO.resolve("node_modules/playwright-core"))
            ? "playwright-core is not installed (npm ci in " + SCENARIO + ")" : null;
    if (missing != null && required) {
      throw new IllegalStateException("CORRAL_REQUIRE_BROWSER=1 but " + missing);
    }
    assumeTrue(missing == null, "the dashboard test is skipped: " + missing);
    cluster = LocalCluster.upWithConfig(1, CONF);
    Matcher url = Pattern.compile("export SLURM_RESTD_URL=\"([^\"]+)\"")
        .matcher(Files.readString(cluster.dir.resolve("env")));
    assertThat(url.find()).isTrue();
    base = url.group(1);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("X-SLURM-USER-TOKEN", token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theOwnerSeesTheJobPlottedAndCancelsItAnotherUserIsRefused() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    Path work = cluster.workDir(alice);
    LocalCluster.Result sub = cluster.as(alice, work, "sbatch", "--parsable", "-J", "dash-burn", "-t", "5",
        "--wrap", "echo dashboard-hello; while :; do :; done");
    assertThat(sub.exitCode()).as(sub.err()).isZero();
    int job = Integer.parseInt(sub.out().trim());
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!cluster.state(job).equals("RUNNING") && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(cluster.state(job)).isEqualTo("RUNNING");

    Path artifacts = Path.of("target/dashboard").toAbsolutePath();
    Files.createDirectories(artifacts);
    ProcessBuilder node = new ProcessBuilder("node", SCENARIO.resolve("dashboard-scenario.mjs").toString())
        .directory(SCENARIO.toFile());
    node.environment().putAll(java.util.Map.of("DASHBOARD_URL", base, "JOB_ID", String.valueOf(job),
        "OWNER", alice.name(), "OWNER_TOKEN", cluster.token(alice), "OTHER", bob.name(),
        "OTHER_TOKEN", cluster.token(bob), "ARTIFACTS", artifacts.toString()));
    LocalCluster.Result r = LocalCluster.execute(node, null, 150, node.command());
    String seen = r.out();
    assertThat(r.exitCode()).as(seen + r.err()).isZero();
    assertThat(seen).contains("SCENARIO OK").doesNotContain("PAGEERROR");
    assertThat(line(seen, "queue.row")).contains(String.valueOf(job), "dash-burn", alice.name(), "RUNNING");
    assertThat(line(seen, "job.script")).contains("#!/bin/sh", "echo dashboard-hello");
    assertThat(line(seen, "job.output")).contains("dashboard-hello");
    assertThat(line(seen, "job.efficiency")).contains("CPU Efficiency", "core-walltime");
    // the job spins on a core: the plot's samples from the node's metrics show CPU in use (how
    // much of the core it gets depends on what else the test machine runs)
    assertThat(Double.parseDouble(line(seen, "plot.peak_cores"))).isGreaterThan(0.05);
    assertThat(line(seen, "other.output")).contains("Access/permission denied (2002)", "only the job's owner");
    assertThat(line(seen, "other.cancel")).contains("Refused: Access/permission denied (2002)");
    assertThat(line(seen, "owner.cancel")).contains("Job " + job + " cancelled");
    assertThat(line(seen, "overview")).contains("Cluster dashboard", "Nodes");
    assertThat(artifacts.resolve("job-page.png")).isNotEmptyFile();

    deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!List.of("CANCELLED", "").contains(cluster.state(job)) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(cluster.state(job)).isIn("CANCELLED", "");
  }

  @Test
  void thePageIsServedFromTheJarAndItsReadsNeedAToken() throws Exception {
    HttpResponse<String> page = get("/dashboard/", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("content-security-policy").orElse("")).contains("default-src 'self'");
    assertThat(page.body()).contains("dashboard.js").doesNotContain("http://", "https://");
    assertThat(get("/dashboard/uPlot.iife.min.js", null).body()).startsWith("/*! https://github.com/leeoniya/uPlot (v1.6.32) */");
    assertThat(get("/dashboard/../slurm.key", null).statusCode()).isEqualTo(404);

    assertThat(get("/dashboard/api/usage", null).statusCode()).isEqualTo(401);
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    HttpResponse<String> usage = get("/dashboard/api/usage?hours=3", cluster.token(alice));
    assertThat(usage.statusCode()).as(usage.body()).isEqualTo(200);
    assertThat(usage.body()).contains("\"hours\":[", "\"associations\":[", "\"errors\":[]");
    assertThat(get("/dashboard/api/usage?hours=100000", cluster.token(alice)).statusCode()).isEqualTo(400);
  }

  /** The value of the scenario's "SEEN key=value" line. */
  private static String line(String out, String key) {
    Matcher m = Pattern.compile("^SEEN " + Pattern.quote(key) + "=(.*)$", Pattern.MULTILINE).matcher(out);
    assertThat(m.find()).as(key + " in " + out).isTrue();
    return m.group(1).replace("\\n", "\n");
  }
}

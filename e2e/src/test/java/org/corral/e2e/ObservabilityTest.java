package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Observability on a `corral up` cluster: the controller's metrics (MetricsType=metrics/openmetrics)
 * agree with what squeue and sinfo print for the same state, and the audit trail holds one line
 * per change made by three users and root, with the right identities, refusals marked refused.
 */
class ObservabilityTest {
  private static final String CONF = """
      ClusterName=observed
      MetricsType=metrics/openmetrics
      SchedulerType=sched/backfill
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core_Memory
      DefMemPerCPU=100
      NodeName=n[1-2] CPUs=2 RealMemory=1000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;
  private static LocalCluster cluster;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    cluster = LocalCluster.upWithConfig(2, CONF);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void auditTrailHasOneLinePerChangeWithItsAuthor() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    TestUsers.User carol = TestUsers.ensure("corral-carol");
    Path audit = auditLog();
    long before = Files.exists(audit) ? Files.readAllLines(audit).size() : 0;
    List<String> expected = new ArrayList<>(); // "user action result" per change, in order

    Path aw = cluster.workDir(alice);
    int a1 = submit(alice, aw, expected);
    int a2 = submit(alice, aw, expected);
    run(alice, expected, "ok", "hold", "scontrol", "hold", id(a1));
    run(alice, expected, "ok", "release", "scontrol", "release", id(a1));
    run(alice, expected, "ok", "cancel", "scancel", id(a2));

    Path bw = cluster.workDir(bob);
    int b1 = submit(bob, bw, expected);
    submit(bob, bw, expected);
    run(bob, expected, "ok", "update", "scontrol", "update", "JobId=" + b1, "TimeLimit=5");
    run(bob, expected, "ok", "cancel", "scancel", id(b1));
    assertThat(run(bob, expected, "refused", "cancel", "scancel", id(a1)).err())
        .contains("Access/permission denied");

    Path cw = cluster.workDir(carol);
    int c1 = submit(carol, cw, expected);
    run(carol, expected, "ok", "uhold", "scontrol", "uhold", id(c1));
    run(carol, expected, "ok", "release", "scontrol", "release", id(c1));
    run(carol, expected, "ok", "update", "scontrol", "update", "JobId=" + c1, "Name=renamed");
    run(carol, expected, "refused", "create", "scontrol", "create", "reservation", "starttime=now",
        "duration=60", "nodes=n2", "users=" + carol.name());

    run(null, expected, "ok", "update", "scontrol", "update", "NodeName=n1", "State=DRAIN", "Reason=audit");
    run(null, expected, "ok", "update", "scontrol", "update", "NodeName=n1", "State=RESUME");
    run(null, expected, "ok", "create", "scontrol", "create", "reservation", "reservationname=aud",
        "starttime=now+1hour", "duration=60", "nodes=n2", "users=" + alice.name());
    run(null, expected, "ok", "delete", "scontrol", "delete", "reservation", "aud");
    run(null, expected, "ok", "cancel", "scancel", id(a1));
    assertThat(expected).hasSize(20);

    List<String> lines = Files.readAllLines(audit);
    List<String> added = lines.subList((int) before, lines.size());
    List<String> seen = new ArrayList<>();
    for (String line : added) {
      seen.add(field(line, "user") + " " + field(line, "action") + " " + field(line, "result"));
      assertThat(line).contains("\"daemon\":\"slurmctld\"", "\"host\":\"");
    }
    assertThat(seen).containsExactlyElementsOf(expected);
    assertThat(added.get(0)).contains("\"uid\":" + alice.uid(), "\"what\":\"JobId=" + a1 + " JobName=wrap\"");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(audit))).isEqualTo("rw-------");
  }

  @Test
  void sacctmgrChangesAreTransactionsAndAudited() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    assertThat(cluster.as(alice, "sacctmgr", "-i", "add", "account", "stolen").exitCode()).isEqualTo(1);
    assertThat(cluster.as(null, "sacctmgr", "-i", "add", "account", "physics").exitCode()).isZero();
    assertThat(cluster.as(null, "sacctmgr", "-i", "add", "user", alice.name(), "account=physics").exitCode()).isZero();
    String txns = cluster.as(alice, "sacctmgr", "-P", "-n", "show", "transaction", "Accounts=physics",
        "format=action,actor,where").out();
    assertThat(txns).contains("Add Accounts|root|physics\n", "Add Users|root|" + alice.name() + "\n",
        "Add Associations|root|cluster='observed' acct='physics' user='" + alice.name() + "'\n");
    assertThat(cluster.as(null, "sacctmgr", "show", "transaction", "Actor=root", "Users=" + alice.name()).out())
        .startsWith("               Time               Action      Actor                Where                 Info \n");

    Path dbdAudit;
    try (Stream<Path> files = Files.walk(cluster.dir)) {
      dbdAudit = files.filter(p -> p.getFileName().toString().equals("slurmdbd_audit.log")).findFirst().orElseThrow();
    }
    List<String> lines = Files.readAllLines(dbdAudit);
    assertThat(lines).anyMatch(l -> l.contains("\"user\":\"" + alice.name() + "\"")
        && l.contains("put account stolen") && l.contains("\"result\":\"refused\""));
    assertThat(lines).anyMatch(l -> l.contains("\"user\":\"root\"") && l.contains("put account physics")
        && l.contains("\"result\":\"ok\""));
  }

  @Test
  void metricsAgreeWithSqueueAndSinfo() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Path aw = cluster.workDir(alice);
    int running = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-n2", "--wrap", "sleep 120"));
    assertThat(cluster.awaitState(running, "RUNNING", 30)).isEqualTo("RUNNING");
    LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "--begin=now+3600", "--wrap", "true"));

    String jobs = scrape("/metrics/jobs");
    assertThat(value(jobs, "slurm_jobs_pending"))
        .isEqualTo(lines(cluster.as(null, "squeue", "-h", "-t", "PD").out()));
    assertThat(value(jobs, "slurm_jobs_running"))
        .isEqualTo(lines(cluster.as(null, "squeue", "-h", "-t", "R").out()));
    long cpus = 0;
    for (String n : cluster.as(null, "squeue", "-h", "-t", "R", "-o", "%C").out().split("\n")) {
      cpus += n.isBlank() ? 0 : Long.parseLong(n.strip());
    }
    assertThat(value(jobs, "slurm_jobs_cpus_alloc")).isEqualTo(cpus);

    String nodes = scrape("/metrics/nodes");
    // sinfo's allocated/idle/other/total CPUs and node states
    String[] aiot = cluster.as(null, "sinfo", "-h", "-o", "%C").out().strip().split("/");
    long alloc = 0;
    for (String n : cluster.as(null, "sinfo", "-h", "-N", "-o", "%N").out().strip().split("\n")) {
      alloc += value(nodes, "slurm_node_cpus_alloc{node=\"" + n.strip() + "\"}");
    }
    assertThat(alloc).isEqualTo(Long.parseLong(aiot[0]));
    assertThat(value(nodes, "slurm_nodes")).isEqualTo(lines(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N").out()));
    Map<String, String> sinfoNames = Map.of("alloc", "slurm_nodes_alloc", "mix", "slurm_nodes_mixed",
        "idle", "slurm_nodes_idle");
    for (var e : sinfoNames.entrySet()) {
      long sinfoCount = Stream.of(cluster.as(null, "sinfo", "-h", "-N", "-o", "%t").out().split("\n"))
          .filter(t -> t.strip().equals(e.getKey())).count();
      assertThat(value(nodes, e.getValue())).as(e.getKey()).isEqualTo(sinfoCount);
    }
    cluster.as(null, "scancel", "-u", alice.name());
  }

  private static long lines(String out) {
    return out.lines().filter(l -> !l.isBlank()).count();
  }

  private static String id(int job) {
    return String.valueOf(job);
  }

  private static int submit(TestUsers.User user, Path work, List<String> expected) throws Exception {
    int id = LocalCluster.jobId(cluster.as(user, work, "sbatch", "--begin=now+3600", "--wrap", "true"));
    expected.add(user.name() + " submit ok");
    return id;
  }

  private static LocalCluster.Result run(TestUsers.User user, List<String> expected, String result, String action,
      String... args) throws Exception {
    LocalCluster.Result r = cluster.as(user, args);
    assertThat(r.exitCode() == 0).as(String.join(" ", args) + ": " + r).isEqualTo(result.equals("ok"));
    expected.add((user == null ? "root" : user.name()) + " " + action + " " + result);
    return r;
  }

  private static Path auditLog() throws IOException {
    try (Stream<Path> files = Files.walk(cluster.dir)) {
      return files.filter(p -> p.getFileName().toString().equals("slurmctld_audit.log")).findFirst()
          .orElseGet(() -> cluster.dir.resolve("log/slurmctld_audit.log"));
    }
  }

  private static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    assertThat(m.find()).as(name + " in " + json).isTrue();
    return m.group(1);
  }

  private static String scrape(String path) throws IOException {
    try (Socket s = new Socket("127.0.0.1", cluster.portBase)) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(response).startsWith("HTTP/1.1 200 ");
      return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
  }

  private static long value(String text, String sample) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(sample) + " (\\S+)$").matcher(text);
    assertThat(m.find()).as(sample + " in\n" + text).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }
}

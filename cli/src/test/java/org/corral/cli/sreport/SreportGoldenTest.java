package org.corral.cli.sreport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.corral.cli.Cli;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.ClusterUsage;
import org.corral.protocol.msg.JobSizeUsage;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.UsageReportReply;
import org.corral.protocol.msg.UsageReportRequest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * sreport against what Slurm 22.05's sreport printed (resources golden/sreport/NAME.{args,out,
 * err,rc}, from /work/acct-ref), served by a fake slurmdbd holding what the reference's own
 * rollup stored for hour 00 of 2026-11-24 (its database dump): 32 CPUs registered at 00:33:06,
 * 5197 CPU-seconds allocated, 46422 idle, 29 planned; alice 1538 in physics and 726 in theory,
 * bob 2932 in theory, root 1. The dbd side (RollupTest) computes these same numbers from the
 * job records.
 */
class SreportGoldenTest {
  static final long DAY = 1_795_478_400L; // 2026-11-24T00:00:00Z
  /** After the first hourly rollup (sreport_*). */
  static final long NOW = DAY + 3600 + 5 * 60;
  /** Before it (sreport_pre_*). */
  static final long PRE = DAY + 49 * 60;

  static final Map<String, String> SKIPPED = Map.of(
      "15_T_cpu_mem", "memory TRES usage is not rolled up by Corral's slurmdbd (refused: -T takes cpu)");

  static final List<AcctAssoc> TREE = List.of(
      AcctAssoc.newBuilder().setCluster("reference").setAccount("root").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("root").setUser("root").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("chem").setParentAccount("root").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("physics").setParentAccount("root").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("physics").setUser("alice").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("theory").setParentAccount("physics").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("theory").setUser("alice").build(),
      AcctAssoc.newBuilder().setCluster("reference").setAccount("theory").setUser("bob").build());

  /** The hour's usage, and the jobs' sizes (CPUs x seconds of the reference jobs by account). */
  static UsageReportReply hour00(UsageReportRequest q) {
    UsageReportReply.Builder r = UsageReportReply.newBuilder();
    if (q.getStart() > DAY || q.getEnd() <= DAY) {
      return r.build();
    }
    r.addClusters(ClusterUsage.newBuilder().setCluster("reference").setCpus(32).setAllocSecs(5197)
        .setIdleSecs(46422).setPlannedSecs(29).setTotalSecs(51648));
    r.addAssocs(AssocUsage.newBuilder().setCluster("reference").setAccount("physics").setUser("alice").setAllocSecs(1538));
    r.addAssocs(AssocUsage.newBuilder().setCluster("reference").setAccount("root").setUser("root").setAllocSecs(1));
    r.addAssocs(AssocUsage.newBuilder().setCluster("reference").setAccount("theory").setUser("alice").setAllocSecs(726));
    r.addAssocs(AssocUsage.newBuilder().setCluster("reference").setAccount("theory").setUser("bob").setAllocSecs(2932));
    if (q.getJobSizes()) {
      r.addJobSizes(size("physics", 1, 1538 - 1440 - 8, 14));
      r.addJobSizes(size("physics", 2, 4, 1));
      r.addJobSizes(size("physics", 4, 1440, 2));
      r.addJobSizes(size("root", 1, 1, 2));
      r.addJobSizes(size("theory", 1, 52, 4));
      r.addJobSizes(size("theory", 2, 726, 2));
      r.addJobSizes(size("theory", 8, 2880, 1));
    }
    return r.build();
  }

  private static JobSizeUsage size(String account, int cpus, long secs, int jobs) {
    return JobSizeUsage.newBuilder().setCluster("reference").setAccount(account).setCpus(cpus).setAllocSecs(secs)
        .setJobs(jobs).build();
  }

  static final List<UsageReportRequest> ASKED = new ArrayList<>();

  static RpcChannel dbd(boolean rolledUp) {
    return request -> switch (request.getBodyCase()) {
      case USAGE_REPORT -> {
        ASKED.add(request.getUsageReport());
        yield Response.newBuilder().setUsageReport(rolledUp ? hour00(request.getUsageReport())
            : UsageReportReply.getDefaultInstance()).build();
      }
      case ASSOC_SNAPSHOT -> Response.newBuilder().setAssocSnapshot(AssocSnapshot.newBuilder().addAllAssocs(TREE))
          .build();
      default -> throw new IllegalStateException("sreport asked " + request.getBodyCase());
    };
  }

  record Run(String out, String err, int rc) {}

  static Run run(long now, boolean rolledUp, String... args) {
    return runWithInput(now, rolledUp, "", args);
  }

  static Run runWithInput(long now, boolean rolledUp, String stdin, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sreport", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("SLURM_CONF", "/nonexistent/slurm.conf"),
        Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC),
        () -> { throw new IllegalStateException("sreport never asks the controller"); }, () -> dbd(rolledUp));
    int rc = new SreportCommand(login -> login.equals("root") ? "root" : "",
        () -> new java.io.ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))).run(Arrays.asList(args), cli);
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), rc);
  }

  static String resource(String name) throws IOException {
    try (InputStream in = SreportGoldenTest.class.getResourceAsStream("/golden/sreport/" + name)) {
      if (in == null) {
        throw new IOException("missing golden/sreport/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static final List<String> CASES = List.of("01_cluster_utilization_default", "02_cluster_utilization_today",
      "03_cluster_utilization_t_hours", "04_cluster_utilization_P", "05_cluster_utilization_p",
      "06_cluster_utilization_n", "07_cluster_utilization_t_percent", "08_cluster_utilization_t_seconds",
      "09_user_topusage", "10_user_topusage_P", "11_cluster_accountutilizationbyuser",
      "12_cluster_accountutilizationbyuser_P", "13_cluster_userutilizationbyaccount", "14_job_sizesbyaccount",
      "15_T_cpu_mem", "16_user_topusage_start_explicit", "17_topusage_t_hours", "18_accountutilizationbyuser_tree",
      "19_bad_command", "20_utilization_start_iso", "21_wckey", "22_help", "23_user_topusage_group",
      "24_user_topusage_all_clusters_P_hours", "25_t_hourper", "pre_01_cluster_utilization",
      "pre_02_cluster_utilization_t_hours", "pre_03_cluster_utilization_P", "pre_04_user_topusage_today",
      "pre_05_cluster_accountutilizationbyuser_today");

  @TestFactory
  Stream<DynamicTest> matchesTheReference() {
    return CASES.stream().filter(c -> !SKIPPED.containsKey(c)).map(c -> DynamicTest.dynamicTest(c, () -> {
      String[] args = resource(c + ".args").trim().split(" ");
      boolean pre = c.startsWith("pre_");
      Run r = run(pre ? PRE : NOW, !pre, args);
      assertThat(r.out()).as("stdout").isEqualTo(resource(c + ".out"));
      assertThat(r.err()).as("stderr").isEqualTo(resource(c + ".err"));
      assertThat(r.rc()).as("exit status").isEqualTo(Integer.parseInt(resource(c + ".rc").trim()));
    }));
  }

  /** Options, conditions and errors, recorded against the reference at 01:21 with no usage in their windows. */
  @TestFactory
  Stream<DynamicTest> errorsAndOptionsMatchTheReference() {
    return Stream.iterate(1, i -> i + 1).limit(18).map(i -> String.format("live_%02d", i))
        .map(c -> DynamicTest.dynamicTest(c, () -> {
          String[] args = resource(c + ".args").trim().split(" ");
          Run r = run(DAY + 3600 + 21 * 60, false, args);
          assertThat(r.out()).as("stdout").isEqualTo(resource(c + ".out"));
          assertThat(r.err()).as("stderr").isEqualTo(resource(c + ".err"));
          assertThat(r.rc()).as("exit status").isEqualTo(Integer.parseInt(resource(c + ".rc").trim()));
        }));
  }

  /**
   * The reference's job sizes at 01:41:40, from its replay's job records (hour 01 not rolled up
   * yet): CPU-seconds and jobs (those that used time) by account and CPU count.
   */
  static UsageReportReply replaySizes(UsageReportRequest q) {
    UsageReportReply.Builder r = UsageReportReply.newBuilder();
    if (q.getStart() > DAY + 3600 || q.getEnd() < DAY + 7200 || !q.getJobSizes()) {
      return r.build();
    }
    return r.addJobSizes(size("physics", 1, 108, 10)).addJobSizes(size("physics", 2, 4, 1))
        .addJobSizes(size("physics", 4, 1440, 1)).addJobSizes(size("root", 1, 23, 4))
        .addJobSizes(size("theory", 1, 43, 4)).addJobSizes(size("theory", 2, 728, 2))
        .addJobSizes(size("theory", 8, 2880, 1)).build();
  }

  @TestFactory
  Stream<DynamicTest> jobSizesMatchTheReference() {
    return cases("sizes", 11, DAY + 3600 + 41 * 60 + 40, SreportGoldenTest::replaySizes);
  }

  /**
   * The cases PREFIX_01.. PREFIX_N run at {@code now} against a slurmdbd whose usage reports
   * {@code usage} answers: stdout, stderr and exit status as the reference's.
   */
  static Stream<DynamicTest> cases(String prefix, int n, long now,
      java.util.function.Function<UsageReportRequest, UsageReportReply> usage) {
    return Stream.iterate(1, i -> i + 1).limit(n).map(i -> String.format("%s_%02d", prefix, i))
        .map(c -> DynamicTest.dynamicTest(c, () -> {
          String[] args = resource(c + ".args").trim().split(" ");
          var out = new ByteArrayOutputStream();
          var err = new ByteArrayOutputStream();
          Cli cli = new Cli("sreport", new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("SLURM_CONF", "/nonexistent/slurm.conf"),
              Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC),
              () -> { throw new IllegalStateException(); }, () -> request -> switch (request.getBodyCase()) {
                case USAGE_REPORT -> Response.newBuilder().setUsageReport(usage.apply(request.getUsageReport())).build();
                case ASSOC_SNAPSHOT -> Response.newBuilder().setAssocSnapshot(AssocSnapshot.newBuilder()
                    .addAllAssocs(TREE)).build();
                default -> throw new IllegalStateException();
              });
          int rc = new SreportCommand(login -> "", () -> null).run(Arrays.asList(args), cli);
          assertThat(out.toString(StandardCharsets.UTF_8)).as("stdout").isEqualTo(resource(c + ".out"));
          assertThat(err.toString(StandardCharsets.UTF_8)).as("stderr").isEqualTo(resource(c + ".err"));
          assertThat(rc).as("exit status").isEqualTo(Integer.parseInt(resource(c + ".rc").trim()));
        }));
  }

  /**
   * PLND Down (record-plnd.sh): the reference's hour 08 as its rollup stored it (its
   * reference_usage_hour_table row for TRES cpu: 32 CPUs, alloc 926, down 960, pdown 1440, idle
   * 75384, plan 36490), with a MAINT reservation's 1440 CPU-seconds planned down and a failed
   * node's 960 down (RollupTest gets the same two from the events and the reservation).
   */
  static final long H08 = DAY + 8 * 3600;
  static final long PLND_NOW = DAY + 9 * 3600 + 85; // recorded at 09:01:25, after the hourly rollup
  static final long PLND_ALLOC = 926;
  static final long PLND_IDLE = 75384;
  static final long PLND_PLANNED = 36490;
  static final long PLND_OVER = 0;

  static UsageReportReply hour08(UsageReportRequest q) {
    UsageReportReply.Builder r = UsageReportReply.newBuilder();
    if (q.getStart() > H08 || q.getEnd() <= H08) {
      return r.build();
    }
    return r.addClusters(ClusterUsage.newBuilder().setCluster("reference").setCpus(32).setAllocSecs(PLND_ALLOC)
        .setDownSecs(960).setPlannedDownSecs(1440).setIdleSecs(PLND_IDLE).setPlannedSecs(PLND_PLANNED)
        .setOverSecs(PLND_OVER).setTotalSecs(32 * 3600)).build();
  }

  @TestFactory
  Stream<DynamicTest> plannedDownMatchesTheReference() {
    return cases("plnd", 5, PLND_NOW, SreportGoldenTest::hour08);
  }

  @Test
  void theWindowSentIsTheRoundedOne() {
    ASKED.clear();
    run(NOW, true, "cluster", "utilization", "start=now-1day", "end=now");
    assertThat(ASKED).singleElement().satisfies(q -> {
      assertThat(q.getStart()).isEqualTo(DAY - 86400 + 3600);
      assertThat(q.getEnd()).isEqualTo(DAY + 3600);
      assertThat(q.getJobSizes()).isFalse();
    });
  }

  @Test
  void anUnknownOptionIsRefusedAsGetoptRefusesIt() {
    Run r = run(NOW, true, "-x", "cluster", "utilization");
    assertThat(r.err()).isEqualTo("sreport: invalid option -- 'x'\nTry \"sreport --help\" for more information\n");
    assertThat(r.out()).isEmpty();
    assertThat(r.rc()).isEqualTo(1);
    assertThat(run(NOW, true, "-t").err()).startsWith("sreport: option requires an argument -- 't'\n");
  }

  @Test
  void withoutACommandCommandsAreReadFromStdin() throws IOException {
    Run r = runWithInput(NOW, true, "parsable2\ntime hours\n\nuser topusage start=today end=now\nexit\ncluster bogus\n");
    assertThat(r.out()).isEqualTo(resource("24_user_topusage_all_clusters_P_hours.out"));
    assertThat(r.err()).isEmpty();
    assertThat(r.rc()).isZero();
  }

  @Test
  void unitsAreRoundedAsPrintfRoundsThem() {
    assertThat(TimeFormat.MINUTES.format(90, 0)).isEqualTo("2"); // 1.5 -> 2
    assertThat(TimeFormat.MINUTES.format(150, 0)).isEqualTo("2"); // 2.5 -> 2 (ties to even)
    assertThat(TimeFormat.HOURS.format(5400, 0)).isEqualTo("2");
    assertThat(TimeFormat.HOURPER.format(1800, 3600)).isEqualTo("0(50.00%)");
    assertThat(TimeFormat.parse("h")).isEqualTo(TimeFormat.HOURS);
    assertThat(TimeFormat.parse("hourp")).isNull(); // the Per formats need six letters
    assertThat(TimeFormat.parse("MinPer")).isEqualTo(TimeFormat.MINPER);
    assertThat(TimeFormat.parse("secondsx")).isNull();
  }
}

package org.corral.cli.sdiag;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.CycleStats;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.RpcStat;
import org.corral.protocol.msg.StatsReply;
import org.junit.jupiter.api.Test;

/** sdiag's layout, as Slurm 22.05 printed it (with and without scheduling cycles yet). */
class SdiagCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Response reply, String... args) {
    Cli cli = new Cli("sdiag", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(),
        Clock.fixed(Instant.ofEpochSecond(1795474959L), ZoneOffset.UTC), () -> request -> reply);
    return new SdiagCommand().run(List.of(args), cli);
  }

  private String text() {
    return out.toString(StandardCharsets.UTF_8).replaceAll("gettimeofday\\(\\): \\d+", "gettimeofday(): 23");
  }

  @Test
  void freshCountersAsAfterAReset() {
    StatsReply s = StatsReply.newBuilder().setNow(1795474959L).setSince(1795474959L).setServerThreads(3)
        .setJobsPending(16).setMain(CycleStats.newBuilder().setLastUs(16))
        .setLastBackfillTime(1795474244L)
        .addByType(RpcStat.newBuilder().setName("REQUEST_STATS_INFO").setId(2035).setCount(1).setTotalUs(196))
        .addByUser(RpcStat.newBuilder().setName("root").setId(0).setCount(1).setTotalUs(196)).build();
    assertThat(run(Response.newBuilder().setStats(s).build())).isZero();
    assertThat(text()).isEqualTo("""
        *******************************************************
        sdiag output at Mon Nov 23 23:02:39 2026 (1795474959)
        Data since      Mon Nov 23 23:02:39 2026 (1795474959)
        *******************************************************
        Server thread count:  3
        Agent queue size:     0
        Agent count:          0
        Agent thread count:   0
        DBD Agent queue size: 0

        Jobs submitted: 0
        Jobs started:   0
        Jobs completed: 0
        Jobs canceled:  0
        Jobs failed:    0

        Job states ts:  Mon Nov 23 23:02:39 2026 (1795474959)
        Jobs pending:   16
        Jobs running:   0

        Main schedule statistics (microseconds):
        \tLast cycle:   16
        \tMax cycle:    0
        \tTotal cycles: 0
        \tLast queue length: 0

        Backfilling stats
        \tTotal backfilled jobs (since last slurm start): 0
        \tTotal backfilled jobs (since last stats cycle start): 0
        \tTotal backfilled heterogeneous job components: 0
        \tTotal cycles: 0
        \tLast cycle when: Mon Nov 23 22:50:44 2026 (1795474244)
        \tLast cycle: 0
        \tMax cycle:  0
        \tLast depth cycle: 0
        \tLast depth cycle (try sched): 0
        \tLast queue length: 0
        \tLast table size: 1

        Latency for 1000 calls to gettimeofday(): 23 microseconds

        Remote Procedure Call statistics by message type
        \tREQUEST_STATS_INFO                      ( 2035) count:1      ave_time:196    total_time:196

        Remote Procedure Call statistics by user
        \troot            (       0) count:1      ave_time:196    total_time:196

        Pending RPC statistics
        \tNo pending RPCs
        """);
  }

  @Test
  void meansAppearOnceThereWereCyclesAndRpcsSortByCount() {
    StatsReply s = StatsReply.newBuilder().setNow(1795474933L).setSince(1795472368L)
        .setMain(CycleStats.newBuilder().setLastUs(22).setMaxUs(3507).setCount(65).setTotalUs(65 * 237 + 10)
            .setDepthTotal(65))
        .setBackfill(CycleStats.newBuilder().setLastUs(1401).setMaxUs(1401).setCount(31).setTotalUs(31 * 255)
            .setLastDepth(3).setDepthTotal(93).setLastQueue(1).setQueueTotal(93))
        .addByType(RpcStat.newBuilder().setName("REQUEST_JOB_INFO").setId(2003).setCount(16).setTotalUs(5751))
        .addByType(RpcStat.newBuilder().setName("REQUEST_PRIORITY_FACTORS").setId(2026).setCount(29).setTotalUs(6403))
        .build();
    run(Response.newBuilder().setStats(s).build());
    assertThat(text()).contains("""
        \tTotal cycles: 65
        \tMean cycle:   237
        \tMean depth cycle:  1
        \tCycles per minute: 1
        """).contains("""
        \tMax cycle:  1401
        \tMean cycle: 255
        \tLast depth cycle: 3
        \tLast depth cycle (try sched): 3
        \tDepth Mean: 3
        \tDepth Mean (try depth): 3
        \tLast queue length: 1
        \tQueue length mean: 3
        \tLast table size: 1
        \tMean table size: 1
        """).contains("""
        \tREQUEST_PRIORITY_FACTORS                ( 2026) count:29     ave_time:220    total_time:6403
        \tREQUEST_JOB_INFO                        ( 2003) count:16     ave_time:359    total_time:5751
        """);
  }

  @Test
  void resetIsForAdministrators() {
    assertThat(run(Response.getDefaultInstance(), "-r")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("Reset scheduling statistics\n");
    out.reset();
    assertThat(run(Response.newBuilder().setErrorCode(SlurmError.ACCESS_DENIED.code()).build(), "-r")).isEqualTo(255);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("slurm_reset_statistics: Access/permission denied\n");
  }

  @Test
  void jsonIsSlurmrestdsDiagLayout() {
    StatsReply s = StatsReply.newBuilder().setNow(1795474959L).setSince(1795474000L).setServerThreads(3)
        .setJobsSubmitted(7).setJobsPending(16).setMain(CycleStats.newBuilder().setLastUs(16).setCount(2).setTotalUs(40))
        .build();
    assertThat(run(Response.newBuilder().setStats(s).build(), "--json")).isZero();
    String json = out.toString(StandardCharsets.UTF_8);
    // the statistics are exactly what slurmrestd's GET /slurm/v0.0.42/diag answers
    String stats = org.corral.protocol.dataparser.JsonWriter.pretty(
        new org.corral.protocol.dataparser.JsonObject().set("statistics",
            org.corral.protocol.dataparser.DiagJson.of(s)));
    assertThat(json).startsWith(stats.substring(0, stats.lastIndexOf('}')).stripTrailing() + ",\n  \"meta\": {");
    assertThat(json).contains("\"jobs_submitted\": 7", "\"jobs_pending\": 16", "\"schedule_cycle_mean\": 20",
        "\"data_parser\": \"data_parser/v0.0.42\"", "\"errors\": [", "\"warnings\": [");
    assertThat(json).containsPattern("\"command\": \\[\\s*\"sdiag\",\\s*\"--json\"\\s*\\]");
    assertThat(json).endsWith("}\n");
  }
}

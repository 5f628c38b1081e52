package org.corral.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.corral.protocol.NodeStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.junit.jupiter.api.Test;

class FormatHelpersTest {
  @Test
  void percentFormatSplitsAtEveryPercentLikeSlurm() {
    assertThat(PercentFormat.parse("JOB=%.5i|%-3j%%;x")).containsExactly(
        new PercentFormat.Literal("JOB="),
        new PercentFormat.Field('i', 5, true, "|"),
        new PercentFormat.Field('-', 0, false, "3j"),
        new PercentFormat.Field(';', 0, false, "x"));
    assertThat(PercentFormat.parse("%20Y")).containsExactly(
        new PercentFormat.Field('Y', 20, false, ""));
  }

  @Test
  void cellsArePaddedAndCut() {
    assertThat(Cell.fit("corral-bob", 8, true)).isEqualTo("corral-b");
    assertThat(Cell.fit("R", 2, true)).isEqualTo(" R");
    assertThat(Cell.fit("long", 5, false)).isEqualTo("long ");
    assertThat(Cell.fit("whole", 0, true)).isEqualTo("whole");
  }

  @Test
  void uncutColumnsOverflowButTheirHeadersAreCut() {
    Column<String> c = new Column<String>('l', null, "TIME_LIMIT", s -> s).uncut();
    Table<String> t = Table.ofPercent("%.9l|", List.of(c), ch -> { });
    assertThat(t.header()).isEqualTo("TIME_LIMI|");
    assertThat(t.row("1-00:00:00")).isEqualTo("1-00:00:00|");
  }

  @Test
  void unknownLettersPrintThemselvesAndAreReported() {
    StringBuilder bad = new StringBuilder();
    Table<String> t = Table.ofPercent("%i %!", List.of(new Column<String>('i', null, "ID", s -> s)),
        bad::append);
    assertThat(t.row("7")).isEqualTo("7 %!");
    assertThat(bad).hasToString("!");
  }

  @Test
  void longFormatsUseNamesAndWidths() {
    Table<String> t = Table.ofLong("id:.4,name", List.of(
        new Column<String>('i', "ID", "JOBID", s -> s), new Column<String>('j', "Name", "NAME", s -> "x")), 6,
        f -> { });
    assertThat(t.header()).isEqualTo("JOBINAME  ");
    // As Slurm's strtol: no digits is width 0, what follows the digits is a suffix; an unknown
    // name is reported and prints nothing.
    StringBuilder bad = new StringBuilder();
    Table<String> s = Table.ofLong("id:,nope,name:3|,id:.4;", List.of(
        new Column<String>('i', "ID", "JOBID", v -> v), new Column<String>('j', "Name", "NAME", v -> "x")), 20,
        bad::append);
    assertThat(s.header()).isEqualTo("JOBIDNAM|JOBI;");
    assertThat(s.row("7")).isEqualTo("7x  |   7;");
    assertThat(bad).hasToString("nope");
  }

  @Test
  void jobStateNamesCodesAndFilters() {
    JobInfo completing = JobInfo.newBuilder().setState(JobState.COMPLETED).setCompleting(true).build();
    assertThat(JobStates.code(completing)).isEqualTo("CG");
    assertThat(JobStates.name(completing)).isEqualTo("COMPLETING");
    assertThat(JobStates.isActive(completing)).isTrue();
    assertThat(JobStates.code(JobState.OUT_OF_MEMORY)).isEqualTo("OOM");
    JobStates.Filter f = JobStates.parseFilter("pd,Running,cg");
    assertThat(f.matches(JobInfo.newBuilder().setState(JobState.PENDING).build())).isTrue();
    assertThat(f.matches(JobInfo.newBuilder().setState(JobState.FAILED).build())).isFalse();
    assertThat(f.matches(completing)).isTrue();
    assertThat(JobStates.parseFilter("all").matches(JobInfo.getDefaultInstance())).isTrue();
    assertThatThrownBy(() -> JobStates.parseFilter("R,bogus")).hasMessage("bogus");
  }

  @Test
  void everyStateFlagSlurmNamesIsAcceptedAndACompletingJobIsSelectedByItsFlagOnly() {
    JobInfo cancelling = JobInfo.newBuilder().setState(JobState.CANCELLED).setCompleting(true).build();
    JobInfo running = JobInfo.newBuilder().setState(JobState.RUNNING).build();
    JobStates.Filter flags = JobStates.parseFilter("R,S,CG,RS,SI,SO,ST");
    assertThat(flags.matches(cancelling)).isTrue();
    assertThat(flags.matches(running)).isTrue();
    JobStates.Filter pendingLike = JobStates.parseFilter("PD,CF,RF,RH,RQ,SE");
    assertThat(pendingLike.matches(running)).isFalse();
    assertThat(pendingLike.matches(JobInfo.newBuilder().setState(JobState.SPECIAL_EXIT).build())).isTrue();
    assertThat(JobStates.parseFilter("CA").matches(cancelling)).isFalse(); // as the reference: CG, not CA
    assertThat(JobStates.parseFilter("configuring,Resizing,requeued,requeue_fed,requeue_hold,resv_del_hold,"
        + "revoked,signaling,stage_out,stopped,rd,rv").matches(running)).isFalse();
    assertThat(JobStates.parseFilter("").matches(running)).isFalse();
    assertThat(JobStates.parseFilter("r,").matches(running)).isTrue();
    assertThatThrownBy(() -> JobStates.parseFilter("r, pd")).hasMessage(" pd");
    assertThatThrownBy(() -> JobStates.parseFilter("LAUNCH_FAILED")).hasMessage("LAUNCH_FAILED");
  }

  private static NodeInfo.Builder node(int alloc) {
    return NodeInfo.newBuilder().setCpus(8).setAllocCpus(alloc).setBaseState(NodeBaseState.NODE_IDLE);
  }

  @Test
  void nodeStatesDeriveFromAllocationsAndFlags() {
    NodeInfo mixedDrain = node(2).setDrain(true).build();
    assertThat(NodeStates.scontrol(mixedDrain)).isEqualTo("MIXED+DRAIN");
    assertThat(NodeStates.full(mixedDrain)).isEqualTo("draining");
    assertThat(NodeStates.compact(mixedDrain)).isEqualTo("drng");
    NodeInfo idleDrain = node(0).setDrain(true).build();
    assertThat(NodeStates.compact(idleDrain)).isEqualTo("drain");
    assertThat(NodeStates.full(idleDrain)).isEqualTo("drained");
    assertThat(NodeStates.compact(node(8).build())).isEqualTo("alloc");
    // scontrol update State=FAIL, as the reference shows it: IDLE+FAIL, fail; failing with jobs
    NodeInfo idleFail = node(0).setFail(true).build();
    assertThat(NodeStates.scontrol(idleFail)).isEqualTo("IDLE+FAIL");
    assertThat(NodeStates.full(idleFail)).isEqualTo("fail");
    assertThat(NodeStates.compact(idleFail)).isEqualTo("fail");
    assertThat(NodeStates.unavailable(idleFail)).isTrue();
    assertThat(NodeStates.matches(idleFail, "FAIL")).isTrue();
    assertThat(NodeStates.matches(node(0).build(), "fail")).isFalse();
    NodeInfo mixedFail = node(2).setFail(true).build();
    assertThat(NodeStates.scontrol(mixedFail)).isEqualTo("MIXED+FAIL");
    assertThat(NodeStates.full(mixedFail)).isEqualTo("failing");
    assertThat(NodeStates.compact(mixedFail)).isEqualTo("failg");
    NodeInfo downNoResp = node(0).setBaseState(NodeBaseState.NODE_DOWN).setNotResponding(true).build();
    assertThat(NodeStates.scontrol(downNoResp)).isEqualTo("DOWN*");
    assertThat(NodeStates.compact(downNoResp)).isEqualTo("down*");
    assertThat(NodeStates.compact(node(0).setBaseState(NodeBaseState.NODE_UNKNOWN).build()))
        .isEqualTo("unk");
    assertThat(NodeStates.matches(idleDrain, "IDLE")).isTrue();
    assertThat(NodeStates.matches(mixedDrain, "drain")).isTrue();
    assertThat(NodeStates.matches(mixedDrain, "drained")).isFalse();
    // -t allocated takes mixed nodes too (Slurm filters on the base state, ALLOCATED for both)
    assertThat(NodeStates.matches(node(2).build(), "allocated")).isTrue();
    assertThat(NodeStates.matches(node(2).build(), "ALLOC")).isTrue();
    assertThat(NodeStates.matches(node(8).build(), "mixed")).isFalse();
    assertThat(NodeStates.matches(node(0).build(), "alloc")).isFalse();
    assertThat(NodeStates.sortKey(idleDrain)).isGreaterThan(NodeStates.sortKey(node(2).build()));
    assertThat(NodeStates.isStateWord("bogus")).isFalse();
  }

  @Test
  void timesPrintAsSlurmDoes() {
    long t = Instant.parse("2026-11-03T04:05:06Z").getEpochSecond();
    assertThat(SlurmTimes.iso(t, ZoneOffset.UTC, "N/A")).isEqualTo("2026-11-03T04:05:06");
    assertThat(SlurmTimes.iso(0, ZoneOffset.UTC, "Unknown")).isEqualTo("Unknown");
    assertThat(SlurmTimes.ctime(Instant.ofEpochSecond(t), ZoneOffset.UTC))
        .isEqualTo("Tue Nov  3 04:05:06 2026");
    assertThat(SlurmTimes.hms(4)).isEqualTo("00:00:04");
    assertThat(SlurmTimes.hms(90061)).isEqualTo("1-01:01:01");
    assertThat(SlurmTimes.limitHms(SlurmTimes.INFINITE)).isEqualTo("UNLIMITED");
  }
}

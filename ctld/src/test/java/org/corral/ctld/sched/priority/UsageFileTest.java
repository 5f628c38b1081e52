package org.corral.ctld.sched.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.TimeUsage;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fairshare's usage survives a controller restart, decayed for the time it was down. */
class UsageFileTest {
  @TempDir Path dir;

  private static final SchedulingConfig CFG = new SchedulingConfig(true,
      new SchedulingConfig.Weights(0, 0, 10000, 0, 0, 0, Map.of()), 3600, false, Set.of(), 3600, 300, true,
      SchedulingConfig.Backfill.DEFAULTS);

  @Test
  void usageIsKeptAcrossARestartAndDecaysMeanwhile() throws Exception {
    Path file = dir.resolve("assoc_usage");
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().setNumTasks(4).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1000, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(4).setMemMb(400).build())));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1100, 0, "n1"));
    PriorityPass before = new PriorityPass(CFG, file);
    before.recalc(s, 1000);
    before.recalc(s, 1300); // 4 CPUs for 100 s, decayed a little
    assertThat(Files.exists(file)).isTrue();

    ClusterState empty = TestStates.cluster(1, 8, 4000); // the job was purged meanwhile
    PriorityPass after = new PriorityPass(CFG, file);
    after.recalc(empty, 1300 + 3600); // one half-life later
    double was = new UsageFile(file).load().byUser().get("alice");
    assertThat(was).isCloseTo(400 * 0.5, within(1.0)); // decayed by half while down
  }

  @Test
  void timeLimitsUsageIsKeptTooAndCountsWhatRunsNow() throws Exception {
    Path file = dir.resolve("assoc_usage");
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1,
        TestStates.spec().setNumTasks(4).setAccount("physics").setQos("high").build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1000, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(4).setMemMb(400).build())));
    PriorityPass before = new PriorityPass(CFG, file);
    before.recalc(s, 1000);
    before.recalc(s, 1300); // 300 s folded in (what ran since the last recalculation is added undecayed)
    double folded = 300;
    // ... and 50 s more counted since, not yet decayed
    TimeUsage.Used assoc = before.timeUsage(s, 1350).byAssoc().get(new TimeUsage.Owner("physics", "alice", "debug"));
    assertThat(assoc.wallSecs()).isCloseTo(folded + 50, within(1.0));
    assertThat(assoc.cpuSecs()).isCloseTo(4 * (folded + 50), within(4.0));
    assertThat(before.timeUsage(s, 1350).byQos().get("high").cpuSecs()).isCloseTo(4 * (folded + 50), within(4.0));

    PriorityPass after = new PriorityPass(CFG, file); // a restart: the job is gone from memory
    TimeUsage kept = after.timeUsage(TestStates.cluster(1, 8, 4000), 1300);
    assertThat(kept.byAssoc().get(new TimeUsage.Owner("physics", "alice", "debug")).wallSecs())
        .isCloseTo(folded, within(1.0));
    assertThat(kept.byAssoc().get(new TimeUsage.Owner("physics", "alice", "debug")).cpuSecs())
        .isCloseTo(4 * folded, within(4.0));
    assertThat(kept.byQos().get("high").wallSecs()).isCloseTo(folded, within(1.0));
    // the other TRES GrpTRESMins counts are kept as well (node-seconds of its one node)
    assertThat(kept.byAssoc().get(new TimeUsage.Owner("physics", "alice", "debug")).secs("node"))
        .isCloseTo(folded, within(1.0));
    assertThat(kept.byQos().get("high").secs("node")).isCloseTo(folded, within(1.0));
    assertThat(kept.byQos().get("high").cpuSecs()).isCloseTo(4 * folded, within(4.0));
  }

  @Test
  void anUnreadableFileStartsFromZero() throws Exception {
    Path file = dir.resolve("assoc_usage");
    Files.writeString(file, "garbage");
    assertThat(new UsageFile(file).load()).isNull();
    new PriorityPass(CFG, file).recalc(TestStates.cluster(1, 8, 4000), 1000);
  }
}

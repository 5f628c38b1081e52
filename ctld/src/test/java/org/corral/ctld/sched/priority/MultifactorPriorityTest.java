package org.corral.ctld.sched.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

/** Priorities as Slurm 22.05 computed them for the same jobs (4 nodes of 8 CPUs). */
class MultifactorPriorityTest {
  private static SchedulingConfig weights(long age, long fairshare, long size, long partition, long maxAgeS,
      Set<String> flags) {
    return new SchedulingConfig(true, new SchedulingConfig.Weights(age, 700, fairshare, size, partition, 500,
        Map.of()), maxAgeS, false, flags, 7 * 86400, 300, true, SchedulingConfig.Backfill.DEFAULTS);
  }

  private static final SchedulingConfig MEASURED = weights(1000, 10000, 2000, 3000, 3600, Set.of());

  private static JobInfo submitted(ClusterState[] s, int id, JobSpec spec) {
    s[0] = TestStates.submit(s[0], id, spec, 1000);
    return s[0].job(id).orElseThrow().getInfo();
  }

  @Test
  void jobSizePartitionAndNiceAsMeasured() {
    ClusterState[] s = {TestStates.cluster(4, 8, 4000)};
    var calc = new MultifactorPriority(MEASURED, s[0], Map.of());
    JobInfo n1 = submitted(s, 1, TestStates.spec().setNumTasks(1).build());
    JobInfo n3 = submitted(s, 2, TestStates.spec().setNumTasks(3).build());
    JobInfo twoNodesNice = submitted(s, 3, TestStates.spec().setMinNodes(2).setNumTasks(2).setNice(100).build());
    JobInfo niceMinus = submitted(s, 4, TestStates.spec().setNumTasks(1).setNice(-5).build());
    calc = new MultifactorPriority(MEASURED, s[0], Map.of());
    assertThat(calc.of(n1, 1000).priority()).isEqualTo(3281);   // 3000 + 2000 * 0.140625
    assertThat(calc.of(n1, 1000).factors().getJobSize()).isEqualTo(0.140625);
    assertThat(calc.of(n3, 1000).priority()).isEqualTo(3343);   // 3000 + 343.75, truncated
    assertThat(calc.of(n3, 1000).factors().getSum()).isEqualTo(3343.75); // kept for sprio's %y
    assertThat(calc.of(twoNodesNice, 1000).priority()).isEqualTo(3462); // 3000 + 562.5 - 100
    assertThat(calc.of(niceMinus, 1000).priority()).isEqualTo(3286);
  }

  @Test
  void ageGrowsUntilPriorityMaxAgeButNotWhileHeld() {
    ClusterState[] s = {TestStates.cluster(4, 8, 4000)};
    JobInfo j = submitted(s, 1, TestStates.spec().build());
    var calc = new MultifactorPriority(weights(1000, 0, 0, 0, 3600, Set.of()), s[0], Map.of());
    assertThat(calc.of(j, 1000 + 1800).factors().getAge()).isCloseTo(0.5, within(1e-9));
    assertThat(calc.of(j, 1000 + 1800).priority()).isEqualTo(500);
    assertThat(calc.of(j, 1000 + 7200).factors().getAge()).isEqualTo(1.0);
    JobInfo held = j.toBuilder().setPriority(0).build();
    assertThat(calc.of(held, 1000 + 1800).factors().getAge()).isZero();
    var always = new MultifactorPriority(weights(1000, 0, 0, 0, 3600, Set.of("ACCRUE_ALWAYS")), s[0], Map.of());
    assertThat(always.of(held, 1000 + 1800).factors().getAge()).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void allWeightsZeroGivesOne() {
    ClusterState[] s = {TestStates.cluster(1, 8, 4000)};
    JobInfo j = submitted(s, 1, TestStates.spec().build());
    var calc = new MultifactorPriority(weights(0, 0, 0, 0, 3600, Set.of()), s[0], Map.of());
    assertThat(calc.of(j, 5000).priority()).isEqualTo(1);
  }

  @Test
  void basicIsFirstInFirstOut() {
    ClusterState[] s = {TestStates.cluster(1, 8, 4000)};
    JobInfo a = submitted(s, 1, TestStates.spec().build());
    JobInfo b = submitted(s, 2, TestStates.spec().build());
    var calc = new MultifactorPriority(SchedulingConfig.DEFAULTS, s[0], Map.of());
    assertThat(Integer.toUnsignedLong(calc.of(a, 5000).priority()))
        .isGreaterThan(Integer.toUnsignedLong(calc.of(b, 5000).priority()));
  }

  @Test
  void fairshareLowersHeavyUsersAndPassesSetIt() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(8).build(), 1000);
    s = StateMachine.apply(s, new Command.SubmitJob(2, 1001, 1001, "bob", 1001, "bob", TestStates.spec().build()));
    s = StateMachine.apply(s, new Command.StartJob(1, 1002, java.util.List.of(
        org.corral.protocol.msg.NodeAllocation.newBuilder().setNode("n1").setCpus(8).setMemMb(800).build())));
    s = TestStates.submit(s, 3, TestStates.spec().build(), 1003);
    PriorityPass pass = new PriorityPass(weights(0, 10000, 0, 0, 3600, Set.of()));
    pass.recalc(s, 1010);                      // starts tracking
    Command.SetPriorities later = pass.recalc(s, 1010 + 300); // alice ran 8 CPUs for 300 s
    assertThat(later.priorities().get(3).factors().getFairshare()).isEqualTo(0.5); // alice: most used of 2
    assertThat(later.priorities().get(2).factors().getFairshare()).isEqualTo(1.0); // bob: unused
    assertThat(later.priorities().get(2).priority()).isEqualTo(10000);
  }

  @Test
  void fairTreeRanksAndClassicDecays() {
    Map<String, Double> usage = Map.of("a", 100.0, "b", 50.0, "c", 0.0, "d", 0.0);
    assertThat(FairShare.factors(usage, true)).containsExactlyInAnyOrderEntriesOf(
        Map.of("a", 0.25, "b", 0.5, "c", 1.0, "d", 1.0));
    Map<String, Double> classic = FairShare.factors(usage, false);
    assertThat(classic.get("c")).isEqualTo(1.0);
    assertThat(classic.get("a")).isCloseTo(Math.pow(2, -(100.0 / 150) / 0.25), within(1e-12));
  }
}

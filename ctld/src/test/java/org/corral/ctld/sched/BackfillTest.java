package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

/** sched/backfill: jobs start early only where they delay no planned higher-priority job. */
class BackfillTest {
  private static final long NOW = 2000;

  private static ClusterState run(ClusterState s, long now) {
    for (Command c : PlanCheck.accept(s, Planner.plan(s, now), now)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  private static JobInfo job(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  private static JobSpec spec(int nodes, int tasks, int minutes) {
    return TestStates.spec().setMinNodes(nodes).setNumTasks(tasks).setTimeLimitMin(minutes).build();
  }

  /** The scenario measured on Slurm 22.05 (4 nodes of 8 CPUs), with the same outcome. */
  @Test
  void shortJobsFillTheGapBeforeTheTopJobsReservation() {
    ClusterState s = TestStates.cluster(4, 8, 4000);
    s = TestStates.submit(s, 13, TestStates.spec().setMinNodes(2).setExclusive(true).setTimeLimitMin(10).build(), 1990);
    s = TestStates.submit(s, 14, spec(1, 4, 20), 1991);
    s = run(s, 1995);
    s = TestStates.submit(s, 15, spec(3, 3, 5), 1996);
    s = TestStates.submit(s, 16, spec(1, 2, 5), 1997);
    s = TestStates.submit(s, 17, spec(1, 4, 30), 1998);
    s = TestStates.submit(s, 18, spec(2, 2, 3), 1999);
    s = run(s, NOW);

    assertThat(job(s, 15).getStateReason()).isEqualTo("Resources");
    assertThat(job(s, 15).getStartTime()).isEqualTo(1995 + 600); // when job 13 reaches its limit
    assertThat(job(s, 15).getSchedNodes()).isEqualTo("n[1-3]");
    assertThat(job(s, 16).getNodes()).isEqualTo("n3");
    assertThat(job(s, 17).getNodes()).isEqualTo("n4");
    assertThat(job(s, 18).getNodes()).isEqualTo("n[3-4]");
  }

  @Test
  void aJobThatWouldDelayTheReservationWaits() {
    ClusterState s = TestStates.cluster(2, 4, 4000);
    s = TestStates.submit(s, 1, spec(1, 4, 60), 1000);
    s = run(s, NOW);
    s = TestStates.submit(s, 2, spec(2, 8, 60), 1001);
    s = TestStates.submit(s, 3, spec(1, 1, 120), 1002); // would still run when job 2 should start
    s = TestStates.submit(s, 4, spec(1, 1, 30), 1003);  // done well before
    s = run(s, NOW + 5);

    assertThat(job(s, 2).getStartTime()).isEqualTo(NOW + 3600);
    assertThat(job(s, 2).getSchedNodes()).isEqualTo("n[1-2]");
    assertThat(job(s, 3).getState()).isEqualTo(org.corral.protocol.msg.JobState.PENDING);
    assertThat(job(s, 3).getStateReason()).isEqualTo("Priority");
    assertThat(job(s, 3).getStartTime()).isEqualTo(NOW + 3600 + 3600); // after job 2
    assertThat(job(s, 4).getNodes()).isEqualTo("n2");
  }

  @Test
  void builtinNeverStartsAJobBehindABlockedOne() {
    ClusterState s = TestStates.cluster(2, 4, 4000);
    s = TestStates.submit(s, 1, spec(1, 4, 60), 1000);
    s = run(s, NOW);
    s = TestStates.submit(s, 2, spec(2, 8, 60), 1001);
    s = TestStates.submit(s, 3, spec(1, 1, 30), 1002);
    var builtin = new org.corral.common.config.SchedulingConfig(false,
        org.corral.common.config.SchedulingConfig.Weights.NONE, 1, false, java.util.Set.of(), 1, 300, false,
        org.corral.common.config.SchedulingConfig.Backfill.DEFAULTS);
    Plan p = Planner.plan(s, NOW + 5, builtin);
    assertThat(p.starts()).isEmpty();
    assertThat(p.waiting().get(2).expectedStart()).isZero();
    assertThat(p.reasons()).containsEntry(2, "Resources").containsEntry(3, "Priority");
  }

  @Test
  void aJobBeyondTheWindowGetsAnEstimateButNoReservation() {
    ClusterState s = TestStates.cluster(1, 4, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(4).setTimeLimitMin((int) 0xFFFFFFFFL).build(), 1000);
    s = run(s, NOW);
    s = TestStates.submit(s, 2, spec(1, 4, 60), 1001);
    s = run(s, NOW + 5);
    assertThat(job(s, 2).getStartTime()).isEqualTo(NOW + Availability.UNLIMITED_S);
    assertThat(job(s, 2).getSchedNodes()).isEmpty();
  }

  @Test
  void identicalJobsArePlannedOneAfterAnother() {
    ClusterState s = TestStates.cluster(1, 4, 4000);
    s = TestStates.submit(s, 1, spec(1, 4, 10), 1000);
    s = run(s, NOW);
    for (int id = 2; id <= 4; id++) {
      s = TestStates.submit(s, id, spec(1, 4, 10), 1000 + id);
    }
    s = run(s, NOW + 1);
    assertThat(List.of(job(s, 2).getStartTime(), job(s, 3).getStartTime(), job(s, 4).getStartTime()))
        .containsExactly(NOW + 600, NOW + 1200, NOW + 1800);
  }
}

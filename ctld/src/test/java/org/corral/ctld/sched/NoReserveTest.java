package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.limits.LimitCheck;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** QOS Flags=NoReserve: backfill reserves nothing for the job, so lower-priority jobs may start over it. */
class NoReserveTest {
  private static final long NOW = 2000;
  private static final AssocTree TREE = new AssocTree(AssocSnapshot.newBuilder()
      .addQos(AcctQos.newBuilder().setName("normal"))
      .addQos(AcctQos.newBuilder().setName("standby").addFlags("NoReserve")).build(), "c");

  private static ClusterState run(ClusterState s, long now) {
    Plan plan = Planner.plan(s, now, SchedulingConfig.DEFAULTS, LimitCheck.of(s, TREE, LimitCheck.Enforce.NONE));
    for (Command c : PlanCheck.accept(s, plan, now)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  private static JobSpec spec(int nodes, int tasks, int minutes, String qos) {
    return TestStates.spec().setMinNodes(nodes).setNumTasks(tasks).setTimeLimitMin(minutes).setQos(qos).build();
  }

  private static JobInfo job(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  @ParameterizedTest(name = "the waiting job in QOS {0}: the long job behind it {1}")
  @CsvSource({
      "normal,  PENDING", // its reservation of n[1-2] from job 1's end keeps job 3 off n2
      "standby, RUNNING", // nothing reserved: job 3 starts on n2 now
  })
  void aNoReserveJobHoldsNothingForLater(String qos, JobState third) {
    ClusterState s = TestStates.cluster(2, 4, 4000);
    s = TestStates.submit(s, 1, spec(1, 4, 60, "normal"), 1000);
    s = run(s, NOW);
    s = TestStates.submit(s, 2, spec(2, 8, 60, qos), 1001);
    s = TestStates.submit(s, 3, spec(1, 1, 120, "normal"), 1002); // would still run when job 2 could start
    s = run(s, NOW + 5);

    assertThat(job(s, 2).getState()).isEqualTo(JobState.PENDING);
    assertThat(job(s, 2).getStartTime()).isEqualTo(NOW + 3600); // its expected start either way
    assertThat(job(s, 3).getState()).as(job(s, 3).getStateReason() + " " + job(s, 2).getStateReason()).isEqualTo(third);
  }
}

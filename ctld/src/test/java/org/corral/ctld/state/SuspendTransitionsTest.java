package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

class SuspendTransitionsTest {
  private static ClusterState running() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(4).setRequeue(true).build(), 1000);
    return StateMachine.apply(s, new Command.StartJob(1, 1000,
        List.of(NodeAllocation.newBuilder().setNode("n1").setCpus(4).setMemMb(400).build())));
  }

  private static JobInfo job(ClusterState s) {
    return s.job(1).orElseThrow().getInfo();
  }

  @Test
  void suspendStopsTheClockAndFreesTheCpusResumeMovesTheEnd() {
    ClusterState s = StateMachine.apply(running(), new Command.SuspendJob(1, 1030, false, false));
    assertThat(job(s).getState()).isEqualTo(JobState.SUSPENDED);
    assertThat(job(s).getPreSuspendSecs()).isEqualTo(30);
    assertThat(job(s).getSuspendTime()).isEqualTo(1030);
    assertThat(job(s).getEndTime()).isEqualTo(1000 + 3600);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
    assertThat(s.node("n1").orElseThrow().getAllocMemMb()).isEqualTo(400);
    assertThat(StateMachine.apply(s, new Command.SuspendJob(1, 1040, false, false))).isSameAs(s);

    s = StateMachine.apply(s, new Command.SuspendJob(1, 1100, true, false));
    assertThat(job(s).getState()).isEqualTo(JobState.RUNNING);
    assertThat(job(s).getSuspendTime()).isEqualTo(1100);
    assertThat(job(s).getEndTime()).isEqualTo(1000 + 3600 + 70);
    assertThat(job(s).getSuspendedSecs()).isEqualTo(70);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isEqualTo(4);

    s = StateMachine.apply(s, new Command.SuspendJob(1, 1110, false, false));
    assertThat(job(s).getPreSuspendSecs()).isEqualTo(40); // 30 before, 10 since the resumption
  }

  @Test
  void aSuspendedJobThatEndsGivesBackWhatItHeldOnce() {
    ClusterState s = StateMachine.apply(running(), new Command.SuspendJob(1, 1030, false, false));
    s = StateMachine.apply(s, new Command.CancelJob(1, 1050, 0));
    assertThat(job(s).getState()).isEqualTo(JobState.CANCELLED);
    s = StateMachine.apply(s, new Command.JobEnded(1, 1051, 9, "n1"));
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
    assertThat(s.node("n1").orElseThrow().getAllocMemMb()).isZero();
    assertThat(s.node("n1").orElseThrow().getRunningJobs()).isZero();

    ClusterState r = StateMachine.apply(running(), new Command.SuspendJob(1, 1030, false, false));
    r = StateMachine.apply(r, new Command.RequeueJob(1, 1040, false, false, ""));
    r = StateMachine.apply(r, new Command.JobEnded(1, 1041, 9, "n1"));
    assertThat(job(r).getState()).isEqualTo(JobState.PENDING);
    assertThat(r.node("n1").orElseThrow().getAllocCpus()).isZero();
  }

  @Test
  void suspendAndPreemptCommandsSurviveTheJournal() throws Exception {
    for (Command c : List.of(new Command.SuspendJob(3, 5, true, true), new Command.PreemptJob(4, 6, "REQUEUE", 36))) {
      assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
    }
  }
}

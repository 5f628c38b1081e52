package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepRecord;
import org.corral.protocol.msg.StepSpec;
import org.junit.jupiter.api.Test;

class StepTransitionsTest {
  private static ClusterState running(boolean interactive) {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1,
        TestStates.spec().setInteractive(interactive).build(), 1000);
    return StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemMb(200).build(),
        NodeAllocation.newBuilder().setNode("n2").setCpus(2).setMemMb(200).build())));
  }

  private static Command.StepCreated step(int id) {
    return new Command.StepCreated(StepRecord.newBuilder().setInfo(StepInfo.newBuilder().setJobId(1)
        .setStepId(id).setName("hostname").addNodeNames("n1").addNodeNames("n2").addTasksOnNode(1)
        .addTasksOnNode(1).addCpusOnNode(1).addCpusOnNode(1).setNumTasks(2)).setSpec(StepSpec.getDefaultInstance())
        .build(), 1020);
  }

  private static StepInfo stepOf(ClusterState s, int index) {
    return s.job(1).orElseThrow().getSteps(index).getInfo();
  }

  @Test
  void aStepEndsWhenEveryNodeHasReportedWithTheHighestStatus() {
    ClusterState s = StateMachine.apply(running(false), step(0));
    assertThat(stepOf(s, 0).getState()).isEqualTo(JobState.RUNNING);
    assertThat(stepOf(s, 0).getStartTime()).isEqualTo(1020);
    assertThat(s.job(1).orElseThrow().getNextStepId()).isEqualTo(1);

    s = StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n2", 3 << 8, 1030));
    assertThat(stepOf(s, 0).getState()).isEqualTo(JobState.RUNNING);
    // A repeated report, or one from a node outside the step, changes nothing.
    assertThat(StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n2", 0, 1031))).isEqualTo(s);
    assertThat(StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n9", 0, 1031))).isEqualTo(s);

    s = StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n1", 0, 1040));
    assertThat(stepOf(s, 0).getState()).isEqualTo(JobState.FAILED);
    assertThat(stepOf(s, 0).getExitStatus()).isEqualTo(3 << 8);
    assertThat(stepOf(s, 0).getEndTime()).isEqualTo(1040);
  }

  @Test
  void aCancelledStepEndsCancelledAndAJobsEndClosesItsSteps() {
    ClusterState s = StateMachine.apply(StateMachine.apply(running(false), step(0)), step(1));
    s = StateMachine.apply(s, new Command.StepCancelled(1, 0, 1025));
    s = StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n1", 15, 1026));
    s = StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n2", 15, 1026));
    assertThat(stepOf(s, 0).getState()).isEqualTo(JobState.CANCELLED);

    s = StateMachine.apply(s, new Command.JobEnded(1, 1050, 0, "n1"));
    assertThat(stepOf(s, 1).getState()).isEqualTo(JobState.CANCELLED);
    assertThat(stepOf(s, 1).getEndTime()).isEqualTo(1050);
    // No step starts in an ended job.
    assertThat(StateMachine.apply(s, step(2))).isEqualTo(s);
  }

  @Test
  void anAllocationEndsAtOnceWhenCancelledForItHasNoBatchHostToReport() {
    ClusterState s = StateMachine.apply(running(true), step(0));
    s = StateMachine.apply(s, new Command.CancelJob(1, 1060, 0));
    assertThat(s.job(1).orElseThrow().getInfo().getState()).isEqualTo(JobState.CANCELLED);
    assertThat(s.job(1).orElseThrow().getInfo().getCompleting()).isFalse();
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
    assertThat(stepOf(s, 0).getState()).isEqualTo(JobState.CANCELLED);

    ClusterState batch = StateMachine.apply(running(false), new Command.CancelJob(1, 1060, 0));
    assertThat(batch.job(1).orElseThrow().getInfo().getCompleting()).isTrue();
    assertThat(batch.node("n1").orElseThrow().getAllocCpus()).isEqualTo(2);
  }

  @Test
  void stepCommandsSurviveTheJournal() throws Exception {
    for (Command c : List.of(step(3), new Command.StepNodeDone(1, 3, "n1", 256, 5),
        new Command.StepCancelled(1, 3, 6))) {
      assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
    }
  }
}

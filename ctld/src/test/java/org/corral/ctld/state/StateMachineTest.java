package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.junit.jupiter.api.Test;

class StateMachineTest {
  private static NodeAllocation alloc(String node, int cpus, long mem) {
    return NodeAllocation.newBuilder().setNode(node).setCpus(cpus).setMemMb(mem).build();
  }

  @Test
  void submitCreatesPendingJobAndAdvancesIds() {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 7, TestStates.spec().build(), 1000);
    JobInfo j = s.job(7).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.PENDING);
    assertThat(j.getStateReason()).isEqualTo("None");
    assertThat(j.getUserName()).isEqualTo("alice");
    assertThat(j.getStdOut()).isEqualTo("/home/alice/slurm-7.out");
    assertThat(j.getStdErr()).isEqualTo("/home/alice/slurm-7.out");
    assertThat(s.nextJobId()).isEqualTo(8);
  }

  @Test
  void heldSubmissionHasPriorityZeroAndReleaseRestoresIt() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1,
        TestStates.spec().setHold(true).build(), 1000);
    assertThat(s.job(1).orElseThrow().getInfo().getPriority()).isZero();
    assertThat(s.job(1).orElseThrow().getInfo().getStateReason()).isEqualTo("JobHeldUser");
    s = StateMachine.apply(s, new Command.HoldJob(1, true, false));
    assertThat(s.job(1).orElseThrow().getInfo().getPriority()).isEqualTo(StateMachine.DEFAULT_PRIORITY);
    assertThat(s.job(1).orElseThrow().getInfo().getStateReason()).isEqualTo("None");
  }

  @Test
  void aRunningJobIsHeldAndReleasedWhereItRuns() {
    // As the reference: hold of a running job is accepted, Priority=0 Reason=JobHeldAdmin, still RUNNING.
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(alloc("n2", 2, 200))));
    s = StateMachine.apply(s, new Command.HoldJob(1, false, false));
    JobInfo held = s.job(1).orElseThrow().getInfo();
    assertThat(held.getState()).isEqualTo(JobState.RUNNING);
    assertThat(held.getPriority()).isZero();
    assertThat(held.getStateReason()).isEqualTo("JobHeldAdmin");
    s = StateMachine.apply(s, new Command.HoldJob(1, false, true));
    assertThat(s.job(1).orElseThrow().getInfo().getStateReason()).isEqualTo("JobHeldUser");
    s = StateMachine.apply(s, new Command.HoldJob(1, true, false));
    JobInfo released = s.job(1).orElseThrow().getInfo();
    assertThat(released.getState()).isEqualTo(JobState.RUNNING);
    assertThat(released.getPriority()).isEqualTo(StateMachine.DEFAULT_PRIORITY);
    assertThat(released.getStateReason()).isEqualTo("None");
  }

  @Test
  void startTakesResourcesAndEndReturnsThem() {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(alloc("n2", 2, 200))));
    JobInfo j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.RUNNING);
    assertThat(j.getNodes()).isEqualTo("n2");
    assertThat(j.getEndTime()).isEqualTo(1010 + 3600);
    assertThat(s.node("n2").orElseThrow().getAllocCpus()).isEqualTo(2);
    assertThat(s.node("n2").orElseThrow().getAllocMemMb()).isEqualTo(200);

    s = StateMachine.apply(s, new Command.JobEnded(1, 1020, 3 << 8, "n2"));
    j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.FAILED);
    assertThat(j.getExitStatus()).isEqualTo(3 << 8);
    assertThat(s.node("n2").orElseThrow().getAllocCpus()).isZero();
    // A repeated report changes nothing.
    assertThat(StateMachine.apply(s, new Command.JobEnded(1, 1030, 0, "n2"))).isEqualTo(s);
  }

  @Test
  void cancelOfRunningJobCompletesWhenNodeReports() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(alloc("n1", 1, 100))));
    s = StateMachine.apply(s, new Command.CancelJob(1, 1015, 0));
    JobInfo j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.CANCELLED);
    assertThat(j.getCompleting()).isTrue();
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isEqualTo(1);
    s = StateMachine.apply(s, new Command.JobEnded(1, 1016, 15, "n1"));
    j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.CANCELLED);
    assertThat(j.getCompleting()).isFalse();
    assertThat(j.getExitStatus()).isEqualTo(15);
    assertThat(j.getEndTime()).isEqualTo(1015);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
  }

  @Test
  void timeLimitEndsTheJobTimeoutWithReasonTimeLimit() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(alloc("n1", 1, 100))));
    s = StateMachine.apply(s, new Command.TimeoutJob(1, 4610));
    s = StateMachine.apply(s, new Command.JobEnded(1, 4611, 15, "n1"));
    JobInfo j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.TIMEOUT);
    assertThat(j.getStateReason()).isEqualTo("TimeLimit");
    assertThat(j.getExitStatus()).isEqualTo(15);
    assertThat(j.getEndTime()).isEqualTo(4610);
  }

  @Test
  void nodeDownFailsOrRequeuesItsJobs() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setRequeue(false).build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setRequeue(true).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(alloc("n1", 1, 100))));
    s = StateMachine.apply(s, new Command.StartJob(2, 1010, List.of(alloc("n1", 1, 100))));
    s = StateMachine.apply(s, new Command.NodeDown("n1", 1100, NodeReasons.NOT_RESPONDING));
    assertThat(s.node("n1").orElseThrow().getBaseState()).isEqualTo(NodeBaseState.NODE_DOWN);
    assertThat(s.node("n1").orElseThrow().getNotResponding()).isTrue();
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
    assertThat(s.job(1).orElseThrow().getInfo().getState()).isEqualTo(JobState.NODE_FAIL);
    JobInfo requeued = s.job(2).orElseThrow().getInfo();
    assertThat(requeued.getState()).isEqualTo(JobState.PENDING);
    assertThat(requeued.getRestartCount()).isEqualTo(1);
    assertThat(requeued.getNodes()).isEmpty();
  }

  @Test
  void journalRoundTripReplaysToTheSameState() throws Exception {
    ClusterState base = TestStates.cluster(2, 8, 4000);
    List<Command> cmds = List.of(
        new Command.SubmitJob(1, 1000, 1000, "alice", 1000, "alice", TestStates.spec().build()),
        new Command.SubmitJob(2, 1001, 1001, "bob", 1001, "bob", TestStates.spec().setHold(true).build()),
        new Command.StartJob(1, 1002, List.of(alloc("n1", 2, 200))),
        new Command.CancelJob(2, 1003, 1001),
        new Command.JobEnded(1, 1004, 0, "n1"),
        new Command.PurgeJob(2));
    ClusterState live = base;
    ClusterState replayed = base;
    for (Command c : cmds) {
      live = StateMachine.apply(live, c);
      replayed = StateMachine.apply(replayed, CommandCodec.decode(CommandCodec.encode(c)));
    }
    assertThat(replayed).isEqualTo(live);
    ClusterState restored = SnapshotCodec.decode(SnapshotCodec.encode(live, 6));
    assertThat(restored.jobs()).isEqualTo(live.jobs());
    assertThat(restored.nextJobId()).isEqualTo(3);
  }
}

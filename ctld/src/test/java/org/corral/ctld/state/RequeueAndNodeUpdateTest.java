package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.junit.jupiter.api.Test;

/** apply for requeue, node drain/down/resume and --signal's bookkeeping. */
class RequeueAndNodeUpdateTest {
  private static ClusterState running(int jobId, boolean requeue) {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), jobId,
        TestStates.spec().setRequeue(requeue).build(), 1000);
    return StateMachine.apply(s, new Command.StartJob(jobId, 1010, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemMb(200).build())));
  }

  private static JobInfo job(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  @Test
  void requeuedRunningJobCompletesThenPendsWithBeginTimeDelay() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1050, false, false, ""));
    JobInfo j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.PENDING);
    assertThat(j.getCompleting()).isTrue(); // shown COMPLETING until the node says it is gone
    assertThat(j.getRestartCount()).isEqualTo(1);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isEqualTo(2);

    s = StateMachine.apply(s, new Command.JobEnded(1, 1052, 15, "n1"));
    j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.PENDING);
    assertThat(j.getCompleting()).isFalse();
    assertThat(j.getStateReason()).isEqualTo("BeginTime");
    assertThat(j.getSubmitTime()).isEqualTo(1052);
    assertThat(j.getEligibleTime()).isEqualTo(1052 + StateMachine.REQUEUE_DELAY_S);
    assertThat(j.getNodes()).isEmpty();
    assertThat(j.getExitStatus()).isZero();
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
  }

  @Test
  void requeueHoldKeepsTheJobHeldWithItsReason() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1050, true, false, "job requeued in held state"));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1052, 9, "n1"));
    JobInfo j = job(s, 1);
    assertThat(j.getPriority()).isZero();
    assertThat(j.getUserHeld()).isFalse();
    assertThat(j.getStateReason()).isEqualTo("job requeued in held state");
    s = StateMachine.apply(s, new Command.HoldJob(1, true, false));
    assertThat(job(s, 1).getPriority()).isEqualTo(StateMachine.DEFAULT_PRIORITY);
  }

  @Test
  void specialExitHoldsTheJobInItsOwnStateUntilReleased() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1050, true, false, "job requeued in held state", true));
    assertThat(job(s, 1).getState()).isEqualTo(JobState.SPECIAL_EXIT);
    assertThat(job(s, 1).getCompleting()).isTrue();
    s = StateMachine.apply(s, new Command.JobEnded(1, 1052, 9, "n1"));
    JobInfo j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.SPECIAL_EXIT);
    assertThat(j.getCompleting()).isFalse();
    assertThat(j.getPriority()).isZero();
    assertThat(JobStates.isFinished(j)).isFalse();
    s = StateMachine.apply(s, new Command.HoldJob(1, true, false));
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PENDING);
    assertThat(job(s, 1).getPriority()).isEqualTo(StateMachine.DEFAULT_PRIORITY);
  }

  @Test
  void finishedJobGoesStraightBackToTheQueue() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.JobEnded(1, 1020, 0, "n1"));
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1030, false, false, ""));
    JobInfo j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.PENDING);
    assertThat(j.getCompleting()).isFalse();
    assertThat(j.getEligibleTime()).isEqualTo(1030 + StateMachine.REQUEUE_DELAY_S);
    assertThat(j.getRestartCount()).isEqualTo(1);
  }

  @Test
  void aCompletingRequeuedJobIsNotStartedAgain() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1050, false, false, ""));
    ClusterState after = StateMachine.apply(s, new Command.StartJob(1, 1060, List.of(
        NodeAllocation.newBuilder().setNode("n2").setCpus(2).setMemMb(200).build())));
    assertThat(after).isEqualTo(s);
  }

  @Test
  void nodeDownRequeuesWithDelayOrFailsPerTheJobsRequeueFlag() {
    ClusterState s = running(1, true);
    s = TestStates.submit(s, 2, TestStates.spec().setRequeue(false).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(2, 1010, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemMb(200).build())));
    s = StateMachine.apply(s, new Command.NodeDown("n1", 1100, NodeReasons.NOT_RESPONDING));
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PENDING);
    assertThat(job(s, 1).getRestartCount()).isEqualTo(1);
    assertThat(job(s, 1).getStateReason()).isEqualTo("BeginTime");
    assertThat(job(s, 2).getState()).isEqualTo(JobState.NODE_FAIL);
  }

  @Test
  void drainThenResumeClearsFlagAndReason() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 1100, NodeAction.DRAIN, "disk", 0, true));
    NodeInfo n = s.node("n1").orElseThrow();
    assertThat(n.getDrain()).isTrue();
    assertThat(n.getReason()).isEqualTo("disk");
    assertThat(n.getReasonTime()).isEqualTo(1100);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.RUNNING); // draining, not killing

    s = StateMachine.apply(s, new Command.UpdateNode("n1", 1200, NodeAction.RESUME, "", 0, false));
    n = s.node("n1").orElseThrow();
    assertThat(n.getDrain()).isFalse();
    assertThat(n.getReason()).isEmpty();
    assertThat(n.getReasonTime()).isZero();
  }

  @Test
  void downEndsTheNodesJobsAndResumeBringsItBack() {
    ClusterState s = running(1, false);
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 1100, NodeAction.DOWN, "maint", 1000, true));
    NodeInfo n = s.node("n1").orElseThrow();
    assertThat(n.getBaseState()).isEqualTo(NodeBaseState.NODE_DOWN);
    assertThat(n.getNotResponding()).isFalse();
    assertThat(n.getReasonUid()).isEqualTo(1000);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.NODE_FAIL);

    s = StateMachine.apply(s, new Command.UpdateNode("n1", 1200, NodeAction.UNDRAIN, "", 0, false));
    assertThat(s.node("n1").orElseThrow().getBaseState()).isEqualTo(NodeBaseState.NODE_DOWN);
    assertThat(s.node("n1").orElseThrow().getReason()).isEqualTo("maint");

    s = StateMachine.apply(s, new Command.UpdateNode("n1", 1300, NodeAction.RESUME, "", 0, false));
    assertThat(s.node("n1").orElseThrow().getBaseState()).isEqualTo(NodeBaseState.NODE_IDLE);
    assertThat(s.node("n1").orElseThrow().getReason()).isEmpty();
  }

  @Test
  void duringTheEpilogTheJobShowsItsEndButHoldsItsNode() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.JobEnding(1, 1040, 2 << 8, "n1"));
    JobInfo j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.FAILED);
    assertThat(j.getCompleting()).isTrue();
    assertThat(j.getEndTime()).isEqualTo(1040);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isEqualTo(2);
    // A report from a node the job does not run on changes nothing.
    assertThat(StateMachine.apply(running(2, true), new Command.JobEnding(2, 1040, 0, "n2")))
        .isEqualTo(running(2, true));

    s = StateMachine.apply(s, new Command.JobEnded(1, 1045, 2 << 8, "n1"));
    j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.FAILED);
    assertThat(j.getCompleting()).isFalse();
    assertThat(j.getEndTime()).isEqualTo(1040);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
  }

  private static ClusterState runningOnTwo(int jobId) {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), jobId,
        TestStates.spec().setMinNodes(2).build(), 1000);
    return StateMachine.apply(s, new Command.StartJob(jobId, 1010, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemMb(200).build(),
        NodeAllocation.newBuilder().setNode("n2").setCpus(2).setMemMb(200).build())));
  }

  private static int allocCpus(ClusterState s, String node) {
    return s.node(node).orElseThrow().getAllocCpus();
  }

  @Test
  void otherNodesStayTheJobsUntilTheirEpilogIsDone() {
    ClusterState s = runningOnTwo(1);
    s = StateMachine.apply(s, new Command.EpilogNodes(1, List.of("n2"), 1040));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1040, 0, "n1"));
    JobInfo j = job(s, 1);
    assertThat(j.getState()).isEqualTo(JobState.COMPLETED);
    assertThat(j.getCompleting()).isTrue();
    assertThat(allocCpus(s, "n1")).isZero();
    assertThat(allocCpus(s, "n2")).isEqualTo(2);

    s = StateMachine.apply(s, new Command.EpilogNodes(1, List.of(), 1045));
    assertThat(job(s, 1).getCompleting()).isFalse();
    assertThat(allocCpus(s, "n2")).isZero();
    assertThat(s.node("n2").orElseThrow().getRunningJobs()).isZero();
  }

  @Test
  void anEpilogDoneBeforeTheBatchHostsReportFreesOnlyItsNode() {
    ClusterState s = runningOnTwo(1);
    s = StateMachine.apply(s, new Command.JobEnding(1, 1040, 0, "n1"));
    s = StateMachine.apply(s, new Command.EpilogNodes(1, List.of("n2"), 1040));
    s = StateMachine.apply(s, new Command.EpilogNodes(1, List.of(), 1041));
    assertThat(job(s, 1).getCompleting()).isTrue(); // the batch host's own Epilog still runs
    assertThat(allocCpus(s, "n1")).isEqualTo(2);
    assertThat(allocCpus(s, "n2")).isZero();
    s = StateMachine.apply(s, new Command.JobEnded(1, 1046, 0, "n1"));
    assertThat(job(s, 1).getCompleting()).isFalse();
    assertThat(allocCpus(s, "n1")).isZero();
  }

  @Test
  void warnSignalIsRecordedAndClearedForTheNextRun() {
    ClusterState s = running(1, true);
    s = StateMachine.apply(s, new Command.WarnSignalSent(1));
    assertThat(job(s, 1).getWarnSignalSent()).isTrue();
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1050, false, false, ""));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1052, 0, "n1"));
    assertThat(job(s, 1).getWarnSignalSent()).isFalse();
  }

  @Test
  void newCommandsSurviveTheJournalCodec() throws Exception {
    for (Command c : List.<Command>of(
        new Command.UpdateNode("n1", 5, NodeAction.DOWN, "why", 7, true),
        new Command.UpdateNode("n1", 5, NodeAction.REASON_ONLY, "", 0, false,
            new Command.NodeSettings(List.of("a", "b"), List.of(), 4294967280L)),
        new Command.UpdateNode("n1", 5, NodeAction.DRAIN, "x", 0, true, new Command.NodeSettings(null, List.of("a"), 0)),
        new Command.RequeueJob(3, 9, true, true, "job requeued in held state", true),
        new Command.WarnSignalSent(4), new Command.JobEnding(5, 6, 256, "n3"),
        new Command.EpilogNodes(7, List.of("n1", "n2"), 8))) {
      assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
    }
  }
}

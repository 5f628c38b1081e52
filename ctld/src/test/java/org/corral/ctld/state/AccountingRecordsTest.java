package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepUsage;
import org.corral.protocol.msg.NodeInfo;
import org.junit.jupiter.api.Test;

/** The accounting outbox: which changes become events, their order, replay and acknowledgement. */
class AccountingRecordsTest {
  private static final List<NodeAllocation> ON_N1 =
      List.of(NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemMb(200).build());

  private static List<AcctJob> jobs(ClusterState s) {
    return s.outbox().events().values().stream().map(AcctEvent::getJob).toList();
  }

  @Test
  void submitStartAndEndEachLeaveOneEventInOrder() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    assertThat(s.outbox().events()).isEmpty();
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, ON_N1));
    StepUsage usage = StepUsage.newBuilder().setMaxRssKb(5120).setUserCpuMs(700).build();
    s = StateMachine.apply(s, new Command.JobEnded(1, 1020, 3 << 8, "n1", false, usage));

    List<AcctJob> jobs = jobs(s);
    assertThat(jobs).extracting(AcctJob::getState)
        .containsExactly(JobState.PENDING, JobState.RUNNING, JobState.FAILED);
    assertThat(s.outbox().events().keySet()).containsExactly(1L, 2L, 3L);
    AcctJob done = jobs.get(2);
    assertThat(done.getUserName()).isEqualTo("alice");
    assertThat(done.getStartTime()).isEqualTo(1010);
    assertThat(done.getEndTime()).isEqualTo(1020);
    assertThat(done.getNodes()).isEqualTo("n1");
    assertThat(done.getAllocMemMb()).isEqualTo(200); // what it held, for AllocTRES
    assertThat(done.getStepsList()).hasSize(1);
    assertThat(done.getSteps(0).getStepId()).isEqualTo(StepIds.BATCH);
    assertThat(done.getSteps(0).getState()).isEqualTo(JobState.FAILED);
    assertThat(done.getSteps(0).getExitStatus()).isEqualTo(3 << 8);
    assertThat(done.getSteps(0).getNumCpus()).isEqualTo(2);
    assertThat(done.getSteps(0).getUsage().getMaxRssKb()).isEqualTo(5120);
  }

  @Test
  void recordsTheOutputPatternsAsGivenOrDefaulted() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setStdErr("err-%j.txt").setStdIn("/data/in").build(), 1000);
    List<AcctJob> jobs = jobs(s);
    AcctJob defaulted = jobs.get(0);
    assertThat(defaulted.getStdOutPattern()).isEqualTo("/home/alice/slurm-%j.out");
    assertThat(defaulted.getStdOut()).isEqualTo("/home/alice/slurm-1.out");
    assertThat(defaulted.getStdErrPattern()).isEmpty();
    assertThat(defaulted.getStdInPattern()).isEmpty();
    AcctJob given = jobs.get(1);
    assertThat(given.getStdErrPattern()).isEqualTo("err-%j.txt");
    assertThat(given.getStdErr()).isEqualTo("/home/alice/err-2.txt");
    assertThat(given.getStdInPattern()).isEqualTo("/data/in");
  }

  @Test
  void changesNoRecordCaresAboutLeaveNoEvent() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    int before = s.outbox().events().size();
    // Transient (not journaled) changes must never make events: a replay would not repeat them.
    s = StateMachine.apply(s, new Command.SetPendingStatus(Map.of(1, new Waiting("Resources", 0, "")), 1001));
    s = StateMachine.apply(s, new Command.SetPriorities(Map.of(1, new Command.JobPriority(500,
        org.corral.protocol.msg.PriorityFactors.getDefaultInstance()))));
    s = StateMachine.apply(s, new Command.NodeHeard("n1", 1002, 10, 100));
    // A durable change that only moves the priority is not worth a record either.
    s = StateMachine.apply(s, new Command.WarnSignalSent(1));
    assertThat(s.outbox().events()).hasSize(before);
  }

  @Test
  void cancelRecordsWhoCancelled() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.CancelJob(1, 1005, 1234));
    AcctJob last = s.outbox().events().lastEntry().getValue().getJob();
    assertThat(last.getState()).isEqualTo(JobState.CANCELLED);
    assertThat(last.getCancelled()).isTrue();
    assertThat(last.getCancelledBy()).isEqualTo(1234);
    assertThat(last.getStepsList()).isEmpty(); // it never ran
  }

  @Test
  void aRunningJobCancelledRecordsExit0AndItsScriptsSignalOnTheBatchStep() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1001, ON_N1));
    s = StateMachine.apply(s, new Command.CancelJob(1, 1005, 0));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1006, 15, "n1"));
    AcctJob last = s.outbox().events().lastEntry().getValue().getJob();
    assertThat(last.getState()).isEqualTo(JobState.CANCELLED);
    assertThat(last.getExitStatus()).isZero();                  // sacct: 0:0
    assertThat(last.getSteps(0).getState()).isEqualTo(JobState.CANCELLED);
    assertThat(last.getSteps(0).getExitStatus()).isEqualTo(15); // sacct: 0:15
    assertThat(last.getQos()).isEqualTo("normal");
  }

  @Test
  void aScriptKilledByASignalFailsTheJobAndCancelsItsBatchStep() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1001, ON_N1));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1006, 9, "n1"));
    AcctJob last = s.outbox().events().lastEntry().getValue().getJob();
    assertThat(last.getState()).isEqualTo(JobState.FAILED);
    assertThat(last.getExitStatus()).isEqualTo(9);
    assertThat(last.getSteps(0).getState()).isEqualTo(JobState.CANCELLED);
  }

  @Test
  void aHeldJobWasNeverEligible() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().setHold(true).build(), 1000);
    assertThat(s.outbox().events().lastEntry().getValue().getJob().getEligibleTime()).isZero();
    s = StateMachine.apply(s, new Command.HoldJob(1, true, false));
    assertThat(s.outbox().events().lastEntry().getValue().getJob().getEligibleTime()).isEqualTo(1000);
  }

  @Test
  void shippedEventsLeaveAndIdsAreNeverReused() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    for (int i = 1; i <= 3; i++) {
      s = TestStates.submit(s, i, TestStates.spec().build(), 1000 + i);
    }
    s = StateMachine.apply(s, new Command.AcctShipped(2));
    assertThat(s.outbox().events().keySet()).containsExactly(3L);
    s = TestStates.submit(s, 4, TestStates.spec().build(), 1010);
    assertThat(s.outbox().events().keySet()).containsExactly(3L, 4L);
    s = StateMachine.apply(s, new Command.AcctShipped(4));
    assertThat(s.outbox().events()).isEmpty();
    assertThat(s.outbox().nextEventId()).isEqualTo(5);
  }

  @Test
  void replayingTheJournalYieldsTheSameEventsAndSnapshotsKeepThem() throws Exception {
    ClusterState base = TestStates.cluster(1, 8, 4000);
    List<Command> log = new ArrayList<>();
    log.add(new Command.SubmitJob(1, 1000, 1000, "alice", 1000, "alice", TestStates.spec().build()));
    log.add(new Command.SubmitJob(2, 1001, 1000, "alice", 1000, "alice", TestStates.spec().build()));
    log.add(new Command.StartJob(1, 1002, ON_N1));
    log.add(new Command.AcctShipped(1));
    log.add(new Command.CancelJob(2, 1003, 0));
    ClusterState live = base;
    for (Command c : log) {
      live = StateMachine.apply(live, c);
      // transient changes in between, as the live controller makes them
      live = StateMachine.apply(live, new Command.SetPendingStatus(Map.of(2, new Waiting("Priority", 0, "")), 1003));
    }
    ClusterState replayed = base;
    for (Command c : log) {
      replayed = StateMachine.apply(replayed, CommandCodec.decode(CommandCodec.encode(c)));
    }
    assertThat(replayed.outbox().events().keySet()).isEqualTo(live.outbox().events().keySet());
    assertThat(jobs(replayed)).extracting(AcctJob::getState).isEqualTo(jobs(live).stream().map(AcctJob::getState).toList());

    ClusterState restored = SnapshotCodec.decode(SnapshotCodec.encode(live, 9));
    assertThat(restored.outbox().events()).isEqualTo(live.outbox().events());
    assertThat(restored.outbox().nextEventId()).isEqualTo(live.outbox().nextEventId());
  }

  @Test
  void aStepsEndCarriesItsUsageCombinedOverItsNodes() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setInteractive(true).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1001, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build(),
        NodeAllocation.newBuilder().setNode("n2").setCpus(1).setMemMb(100).build())));
    org.corral.protocol.msg.StepRecord step = org.corral.protocol.msg.StepRecord.newBuilder()
        .setInfo(org.corral.protocol.msg.StepInfo.newBuilder().setJobId(1).setStepId(0).setName("hostname")
            .setNodes("n[1-2]").addNodeNames("n1").addNodeNames("n2").setNumTasks(2).setNumCpus(2))
        .build();
    s = StateMachine.apply(s, new Command.StepCreated(step, 1002));
    s = StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n1", 0, 1003,
        StepUsage.newBuilder().setNodes("n1").setNtasks(1).setMaxRssKb(100).setMaxRssNode("n1").setUserCpuMs(10).build()));
    s = StateMachine.apply(s, new Command.StepNodeDone(1, 0, "n2", 0, 1004,
        StepUsage.newBuilder().setNodes("n2").setNtasks(1).setMaxRssKb(300).setMaxRssNode("n2").setUserCpuMs(20).build()));
    AcctJob last = s.outbox().events().lastEntry().getValue().getJob();
    assertThat(last.getStepsList()).hasSize(1); // an allocation has no batch step
    assertThat(last.getSteps(0).getState()).isEqualTo(JobState.COMPLETED);
    assertThat(last.getSteps(0).getUsage().getMaxRssKb()).isEqualTo(300);
    assertThat(last.getSteps(0).getUsage().getMaxRssNode()).isEqualTo("n2");
    assertThat(last.getSteps(0).getUsage().getUserCpuMs()).isEqualTo(30);
  }

  private static List<org.corral.protocol.msg.NodeEvent> nodeEvents(ClusterState s) {
    return s.outbox().events().values().stream().filter(AcctEvent::hasNodeEvent).map(AcctEvent::getNodeEvent).toList();
  }

  @Test
  void aNodeDrainedThenDownThenResumedOpensAndClosesItsEvents() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 2000, NodeAction.REASON_ONLY, "just a note", 0, true));
    assertThat(nodeEvents(s)).isEmpty(); // a reason on a node in service is no event
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 2000, NodeAction.DRAIN, "corral maintenance", 0, true));
    s = StateMachine.apply(s, new Command.NodeDown("n1", 2010, "Not responding"));
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 2020, NodeAction.RESUME, "", 0, false));
    var e = nodeEvents(s);
    assertThat(e).hasSize(4);
    assertThat(e.get(0)).isEqualTo(org.corral.protocol.msg.NodeEvent.newBuilder().setNode("n1").setTimeStart(2000)
        .setState(org.corral.protocol.NodeEvents.IDLE | org.corral.protocol.NodeEvents.FLAG_DRAIN)
        .setReason("corral maintenance").setReasonUid(0).setTres("billing=8,cpu=8,mem=4000M").build());
    assertThat(e.get(1).getTimeEnd()).isEqualTo(2010); // the drain ends where the down begins
    assertThat(e.get(1).getTimeStart()).isZero();
    assertThat(e.get(2).getState()).isEqualTo(org.corral.protocol.NodeEvents.DOWN
        | org.corral.protocol.NodeEvents.FLAG_DRAIN | org.corral.protocol.NodeEvents.FLAG_NO_RESPOND);
    assertThat(e.get(2).getReason()).isEqualTo("Not responding");
    assertThat(e.get(2).getReasonUid()).isEqualTo(org.corral.protocol.NodeEvents.BY_CONTROLLER);
    assertThat(e.get(3).getTimeEnd()).isEqualTo(2020);
    // replaying the journal's commands gives the same events with the same ids
    assertThat(s.outbox().events().keySet()).containsExactly(1L, 2L, 3L, 4L);
  }

  /** scontrol update State=FAIL Reason=..., then RESUME: the reference's event (IDLE|FAIL, 8194). */
  @Test
  void aNodeFailedThenResumedRecordsAFailEvent() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 3000, NodeAction.FAIL, "fan noise", 0, true));
    NodeInfo n = s.nodes().get("n1");
    assertThat(n.getFail()).isTrue();
    assertThat(n.getReason()).isEqualTo("fan noise");
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 3011, NodeAction.RESUME, "", 0, false));
    assertThat(s.nodes().get("n1").getFail()).isFalse();
    assertThat(s.nodes().get("n1").getReason()).isEmpty();
    var e = nodeEvents(s);
    assertThat(e).containsExactly(
        org.corral.protocol.msg.NodeEvent.newBuilder().setNode("n1").setTimeStart(3000).setState(8194)
            .setReason("fan noise").setReasonUid(0).setTres("billing=8,cpu=8,mem=4000M").build(),
        org.corral.protocol.msg.NodeEvent.newBuilder().setNode("n1").setTimeEnd(3011).build());
  }

  /** Each record by the row it updates: (submit time) to the last record sent for it. */
  private static Map<Long, AcctJob> rows(ClusterState s) {
    Map<Long, AcctJob> rows = new java.util.LinkedHashMap<>();
    for (AcctEvent e : s.outbox().events().values()) {
      if (e.hasJob()) {
        rows.put(e.getJob().getSubmitTime(), e.getJob());
      }
    }
    return rows;
  }

  /**
   * scontrol requeue of a running job, as Slurm 22.05 keeps it (sacct -D on the reference): the
   * run's row ends REQUEUED 0:0 at the requeue with its batch step CANCELLED 0:15, and the job
   * pends in a row of its own (submitted at the end of the run); never a PENDING record for the
   * run's row, and the next run carries none of the last one's steps.
   */
  @Test
  void aRequeuedRunKeepsItsOwnRowEndedRequeuedAndTheJobPendsInANewOne() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, ON_N1));
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1050, false, false, ""));
    assertThat(jobs(s)).filteredOn(j -> j.getSubmitTime() == 1000).extracting(AcctJob::getState)
        .containsExactly(JobState.PENDING, JobState.RUNNING, JobState.REQUEUED);
    s = StateMachine.apply(s, new Command.JobEnded(1, 1052, 15, "n1"));
    Map<Long, AcctJob> rows = rows(s);
    assertThat(rows.keySet()).containsExactly(1000L, 1052L);
    AcctJob run = rows.get(1000L);
    assertThat(run.getState()).isEqualTo(JobState.REQUEUED);
    assertThat(run.getExitStatus()).isZero();
    assertThat(run.getStartTime()).isEqualTo(1010);
    assertThat(run.getEndTime()).isEqualTo(1050);
    assertThat(run.getNodes()).isEqualTo("n1");
    assertThat(run.getStepsList()).singleElement().satisfies(b -> {
      assertThat(b.getStepId()).isEqualTo(StepIds.BATCH);
      assertThat(b.getState()).isEqualTo(JobState.CANCELLED);
      assertThat(b.getExitStatus()).isEqualTo(15); // 0:15
      assertThat(b.getEndTime()).isEqualTo(1050);
    });
    AcctJob next = rows.get(1052L);
    assertThat(next.getState()).isEqualTo(JobState.PENDING);
    assertThat(next.getStartTime()).isZero();
    assertThat(next.getStepsList()).isEmpty();
    assertThat(next.getRestartCount()).isEqualTo(1);
    assertThat(s.jobs().get(1).getStepsList()).isEmpty();

    s = StateMachine.apply(s, new Command.StartJob(1, 1200, ON_N1));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1210, 0, "n1"));
    rows = rows(s);
    assertThat(rows.keySet()).containsExactly(1000L, 1052L);
    assertThat(rows.get(1000L).getState()).isEqualTo(JobState.REQUEUED); // untouched by the next run
    assertThat(rows.get(1052L).getState()).isEqualTo(JobState.COMPLETED);
    assertThat(rows.get(1052L).getStepsList()).singleElement()
        .satisfies(b -> assertThat(b.getStartTime()).isEqualTo(1200));
  }

  /** A node failure requeues its jobs: the run's row ends NODE_FAIL (its batch step CANCELLED). */
  @Test
  void aRunRequeuedByANodeFailureEndsNodeFail() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1,
        TestStates.spec().setRequeue(true).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, ON_N1));
    s = StateMachine.apply(s, new Command.NodeDown("n1", 1030, "Not responding"));
    Map<Long, AcctJob> rows = rows(s);
    assertThat(rows.keySet()).containsExactly(1000L, 1030L);
    assertThat(rows.get(1000L).getState()).isEqualTo(JobState.NODE_FAIL);
    assertThat(rows.get(1000L).getEndTime()).isEqualTo(1030);
    assertThat(rows.get(1000L).getSteps(0).getState()).isEqualTo(JobState.CANCELLED);
    assertThat(rows.get(1030L).getState()).isEqualTo(JobState.PENDING);
  }

  /** PreemptMode=REQUEUE: the preempted run's row ends PREEMPTED. */
  @Test
  void aRunRequeuedByPreemptionEndsPreempted() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1,
        TestStates.spec().setRequeue(true).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, ON_N1));
    s = StateMachine.apply(s, new Command.PreemptJob(1, 1040, "REQUEUE", 0));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1041, 15, "n1"));
    Map<Long, AcctJob> rows = rows(s);
    assertThat(rows.keySet()).containsExactly(1000L, 1041L);
    assertThat(rows.get(1000L).getState()).isEqualTo(JobState.PREEMPTED);
    assertThat(rows.get(1000L).getEndTime()).isEqualTo(1040);
    assertThat(rows.get(1041L).getState()).isEqualTo(JobState.PENDING);
  }
}

package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

class PlannerTest {
  private static ClusterState applyAll(ClusterState s, Plan p) {
    for (Command c : PlanCheck.accept(s, p, 2000)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  @Test
  void packsSeveralJobsOnANodeByCpusAndMemory() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    for (int i = 1; i <= 5; i++) {
      s = TestStates.submit(s, i, TestStates.spec().setCpusPerTask(2).build(), 1000 + i);
    }
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(1, 2, 3, 4);
    assertThat(p.starts().get(0).allocation()).containsExactly(
        NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemMb(200).build());
    assertThat(p.reasons()).containsEntry(5, "Resources");
  }

  private static final SchedulingConfig BUILTIN = new SchedulingConfig(false,
      SchedulingConfig.Weights.NONE, 7 * 86400, false, java.util.Set.of(), 7 * 86400, 300, false,
      SchedulingConfig.Backfill.DEFAULTS);

  @Test
  void builtinFirstBlockedJobHoldsBackLaterOnesInItsPartition() {
    ClusterState s = TestStates.cluster(2, 4, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(4).build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setMinNodes(2).setNumTasks(8).build(), 1001);
    s = TestStates.submit(s, 3, TestStates.spec().build(), 1002);
    s = applyAll(s, Planner.plan(s, 2000, BUILTIN));
    assertThat(s.job(1).orElseThrow().getInfo().getNodes()).isEqualTo("n1");
    assertThat(s.job(2).orElseThrow().getInfo().getStateReason()).isEqualTo("Resources");
    assertThat(s.job(3).orElseThrow().getInfo().getStateReason()).isEqualTo("Priority");
  }

  @Test
  void licensesHeldByRunningJobsAndStartedInThePassAreCounted() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    java.util.Map<String, Integer> totals = java.util.Map.of("matlab", 2);
    s = TestStates.submit(s, 1, TestStates.spec().setLicenses("matlab").build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().build(), 1001);
    s = applyAll(s, Planner.plan(s, 2000, SchedulingConfig.DEFAULTS, org.corral.ctld.sched.limits.LimitCheck.NONE, totals));
    assertThat(s.job(1).orElseThrow().getInfo().getNodes()).isNotEmpty();
    // one of two left: the second of these fits, the third does not; a job without licenses starts
    s = TestStates.submit(s, 3, TestStates.spec().setLicenses("matlab").build(), 2001);
    s = TestStates.submit(s, 4, TestStates.spec().setLicenses("matlab").build(), 2002);
    s = TestStates.submit(s, 5, TestStates.spec().build(), 2003);
    Plan p = Planner.plan(s, 3000, SchedulingConfig.DEFAULTS, org.corral.ctld.sched.limits.LimitCheck.NONE, totals);
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactlyInAnyOrder(3, 5);
    assertThat(p.reasons()).containsEntry(4, "Licenses");
    // without Licenses= no request fits
    Plan none = Planner.plan(s, 3000, SchedulingConfig.DEFAULTS, org.corral.ctld.sched.limits.LimitCheck.NONE, java.util.Map.of());
    assertThat(none.starts()).extracting(Command.StartJob::jobId).containsExactly(5);
    assertThat(none.reasons()).containsEntry(3, "Licenses").containsEntry(4, "Licenses");
  }

  @Test
  void aFailedNodeTakesNoNewJobsUntilResumed() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 1500, org.corral.ctld.state.NodeAction.FAIL, "fan noise",
        0, true));
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1000);
    s = applyAll(s, Planner.plan(s, 2000));
    assertThat(s.job(1).orElseThrow().getInfo().getNodes()).isEqualTo("n2");
    s = StateMachine.apply(s, new Command.UpdateNode("n1", 2001, org.corral.ctld.state.NodeAction.RESUME, "", 0,
        false));
    s = TestStates.submit(s, 2, TestStates.spec().setExclusive(true).build(), 2002);
    s = applyAll(s, Planner.plan(s, 2003));
    assertThat(s.job(2).orElseThrow().getInfo().getNodes()).isEqualTo("n1");
  }

  @Test
  void exclusiveJobTakesAWholeIdleNode() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setExclusive(true).build(), 1001);
    s = applyAll(s, Planner.plan(s, 2000));
    assertThat(s.job(1).orElseThrow().getInfo().getNodes()).isEqualTo("n1");
    assertThat(s.job(2).orElseThrow().getInfo().getNodes()).isEqualTo("n2");
    assertThat(s.node("n2").orElseThrow().getAllocCpus()).isEqualTo(8);
  }

  @Test
  void dependenciesWaitThenRunOrNeverRun() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setDependency("afterok:1").build(), 1001);
    s = TestStates.submit(s, 3, TestStates.spec().setDependency("afternotok:1").build(), 1002);
    s = applyAll(s, Planner.plan(s, 2000));
    assertThat(s.job(2).orElseThrow().getInfo().getStateReason()).isEqualTo("Dependency");
    s = StateMachine.apply(s, new Command.JobEnded(1, 2001, 0, "n1"));
    s = applyAll(s, Planner.plan(s, 2002));
    assertThat(s.job(2).orElseThrow().getInfo().getNodes()).isEqualTo("n1");
    assertThat(s.job(3).orElseThrow().getInfo().getStateReason()).isEqualTo("DependencyNeverSatisfied");
  }

  @Test
  void downNodesAndPartitionTimeLimitGiveSlurmsReasons() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = StateMachine.apply(s, new Command.NodeDown("n1", 1500, "Not responding"));
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1000);
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).isEmpty();
    assertThat(p.reasons().get(1)).isEqualTo(Planner.NODES_UNAVAILABLE);
  }

  /** As the reference answered with n2 drained: -N2, then -N2 again. */
  @Test
  void laterJobsOfABlockedPartitionWaitOnTheirNodesThatAreNotUp() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = StateMachine.apply(s, new Command.NodeDown("n2", 1500, "dead"));
    s = TestStates.submit(s, 1, TestStates.spec().setMinNodes(2).build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setMinNodes(2).build(), 1001);
    Plan p = Planner.plan(s, 2000);
    assertThat(p.reasons()).containsEntry(1, Planner.NODES_UNAVAILABLE)
        .containsEntry(2, "ReqNodeNotAvail, UnavailableNodes:n2");
  }

  /** The reference with n1 drained and n2 down: plain, -w n2, -N2, -x n1 after them. */
  @Test
  void jobsNamingNodesThatAreNotUpWaitOnReqNodeNotAvailAndBlockNothing() {
    ClusterState s = TestStates.cluster(3, 8, 4000);
    s = StateMachine.apply(s, new Command.NodeDown("n2", 1500, "dead"));
    s = StateMachine.apply(s, new Command.NodeDown("n3", 1500, "dead"));
    s = TestStates.submit(s, 1, TestStates.spec().setReqNodes("n2,n1").build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setMinNodes(2).build(), 1001);
    s = TestStates.submit(s, 3, TestStates.spec().setExcNodes("n1").build(), 1002);
    s = TestStates.submit(s, 4, TestStates.spec().setMinNodes(3).build(), 1003);
    Plan p = Planner.plan(s, 2000);
    assertThat(p.reasons()).containsEntry(1, "ReqNodeNotAvail, UnavailableNodes:n2")
        .containsEntry(2, Planner.NODES_UNAVAILABLE).containsEntry(3, "ReqNodeNotAvail, UnavailableNodes:n[2-3]")
        .containsEntry(4, "ReqNodeNotAvail, UnavailableNodes:n[2-3]");
  }

  @Test
  void jobsNoNodeCouldHoldWaitWithSlurmsReasons() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setCpusPerTask(99).build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setMinNodes(9).build(), 1001);
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).isEmpty();
    assertThat(p.reasons()).containsEntry(1, "PartitionConfig").containsEntry(2, "PartitionNodeLimit");
  }

  @Test
  void planCheckDropsStartsThatNoLongerFit() {
    ClusterState s = TestStates.cluster(1, 2, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setCpusPerTask(2).build(), 1000);
    Plan p = Planner.plan(s, 2000);
    s = TestStates.submit(s, 2, TestStates.spec().setCpusPerTask(2).build(), 1001);
    s = StateMachine.apply(s, new Command.StartJob(2, 2000, p.starts().get(0).allocation()));
    assertThat(PlanCheck.accept(s, p, 2001)).noneMatch(c -> c instanceof Command.StartJob);
    assertThat(List.of(s.node("n1").orElseThrow().getAllocCpus())).containsExactly(2);
  }

  @Test
  void requeuedJobWaitsForBeginTimeThenStarts() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1,
        TestStates.spec().setRequeue(true).build(), 1000);
    s = StateMachine.apply(s, new Command.StartJob(1, 1001, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build())));
    s = StateMachine.apply(s, new Command.RequeueJob(1, 1500, false, false, ""));
    assertThat(Planner.plan(s, 1501).starts()).isEmpty(); // still completing on n1

    s = StateMachine.apply(s, new Command.JobEnded(1, 1502, 9, "n1"));
    Plan early = Planner.plan(s, 1502 + StateMachine.REQUEUE_DELAY_S - 1);
    assertThat(early.starts()).isEmpty();
    assertThat(early.reasons()).containsEntry(1, "BeginTime");
    assertThat(Planner.plan(s, 1502 + StateMachine.REQUEUE_DELAY_S).starts())
        .extracting(Command.StartJob::jobId).containsExactly(1);
  }

  @Test
  void killInvalidDependCancelsWhatCanNeverRun() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1000);
    s = TestStates.submit(s, 2, TestStates.spec().setDependency("afternotok:1").build(), 1001);
    s = StateMachine.apply(s, new Command.StartJob(1, 1002, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build())));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1003, 0, "n1"));
    var kill = new SchedulingConfig(false, SchedulingConfig.Weights.NONE, 1, false, java.util.Set.of(), 1, 300,
        true, new SchedulingConfig.Backfill(30, 500, 60, 1440, 0, 100, true));
    assertThat(PlanCheck.accept(s, Planner.plan(s, 1004, kill), 1004))
        .containsExactly(new Command.CancelJob(2, 1004, 0));
    assertThat(Planner.plan(s, 1004).reasons()).containsEntry(2, "DependencyNeverSatisfied");
  }

  @Test
  void aJobThatCanNoLongerMeetItsDeadlineEndsDeadline() throws Exception {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(8).setTimeLimitMin(60).build(), 1000);
    s = applyAll(s, Planner.plan(s, 2000));
    s = TestStates.submit(s, 2, TestStates.spec().setTimeLimitMin(5).setDeadline(2000 + 3600).build(), 1001);
    s = applyAll(s, Planner.plan(s, 2000));
    assertThat(s.job(2).orElseThrow().getInfo().getState()).isEqualTo(org.corral.protocol.msg.JobState.PENDING);
    List<Command> late = PlanCheck.accept(s, Planner.plan(s, 2000 + 3400), 2000 + 3400);
    assertThat(late).contains(new Command.DeadlineJob(2, 2000 + 3400));
    for (Command c : late) {
      s = StateMachine.apply(s, c);
      if (c.durable()) {
        assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
      }
    }
    var j = s.job(2).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(org.corral.protocol.msg.JobState.DEADLINE);
    assertThat(j.getStateReason()).isEqualTo("DeadLine");
  }
}

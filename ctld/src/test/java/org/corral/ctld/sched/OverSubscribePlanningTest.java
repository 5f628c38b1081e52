package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmDuration;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;

/** Partition OverSubscribe (YES:N with -s, FORCE:N), --exclusive=user and ExclusiveUser. */
class OverSubscribePlanningTest {
  static final long NOW = 10_000;

  /** n nodes of 8 CPUs and {@code mem} MB in partition "p" with this OverSubscribe word. */
  static ClusterState cluster(int n, long mem, String oversubscribe) {
    List<NodeInfo> nodes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      names.add("n" + i);
      nodes.add(NodeInfo.newBuilder().setName("n" + i).setCpus(8).setRealMemoryMb(mem).setWeight(1)
          .addPartitions("p").build());
    }
    PartitionInfo p = PartitionInfo.newBuilder().setName("p").setIsDefault(true).addAllNodeNames(names)
        .setState("UP").setMaxTimeMin((int) SlurmDuration.INFINITE).setMaxNodes((int) SlurmDuration.INFINITE)
        .setPriorityJobFactor(1).setOversubscribe(oversubscribe).build();
    ClusterState s = StateMachine.apply(ClusterState.empty(1), new Command.LoadConfig(nodes, List.of(p), 100));
    for (int i = 1; i <= n; i++) {
      s = StateMachine.apply(s, new Command.NodeRegistered("n" + i, 100, 8, mem, 1, 2, "v", "Linux", "x86_64"));
    }
    return s;
  }

  static JobSpec.Builder job(int cpus) {
    return TestStates.spec().setPartition("p").setNumTasks(cpus);
  }

  static ClusterState submit(ClusterState s, int id, int uid, JobSpec.Builder spec) {
    return StateMachine.apply(s, new Command.SubmitJob(id, 1000 + id, uid, "u" + uid, uid, "u" + uid, spec.build()));
  }

  static ClusterState schedule(ClusterState s, long now) {
    for (Command c : PlanCheck.accept(s, Planner.plan(s, now), now)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  static JobInfo info(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  @Test
  void sharingJobsFillIdleNodesFirstThenShareUpToTheLimit() {
    ClusterState s = cluster(2, 4000, "YES:2");
    for (int id = 1; id <= 5; id++) {
      s = submit(s, id, 1000, job(8).setOversubscribe(true));
    }
    ClusterState started = schedule(s, NOW);
    s = started;
    // as the reference places them: one per node, then a second on each
    assertThat(List.of(1, 2, 3, 4)).extracting(id -> info(started, id).getNodes()).containsExactly("n1", "n2", "n1", "n2");
    assertThat(info(s, 5).getStateReason()).isEqualTo("Resources");
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isEqualTo(16); // CPU-job units: shown capped
  }

  @Test
  void theCountLimitsJobsPerCpuAndYesAloneMeansFour() {
    ClusterState s = cluster(1, 8000, "YES");
    for (int id = 1; id <= 5; id++) {
      s = submit(s, id, 1000, job(8).setOversubscribe(true));
    }
    s = schedule(s, NOW);
    for (int id = 1; id <= 4; id++) {
      assertThat(info(s, id).getNodes()).isEqualTo("n1");
    }
    assertThat(info(s, 5).getStateReason()).isEqualTo("Resources");
  }

  @Test
  void aJobThatDoesNotAskDoesNotShareAndKeepsItsCpus() {
    ClusterState s = cluster(1, 4000, "YES:4");
    s = submit(s, 1, 1000, job(8).setOversubscribe(true));
    s = submit(s, 2, 1000, job(1));
    s = submit(s, 3, 1000, job(4).setOversubscribe(true));
    s = schedule(s, NOW);
    assertThat(info(s, 1).getNodes()).isEqualTo("n1");
    assertThat(info(s, 2).getStateReason()).isEqualTo("Resources"); // every CPU is held by a sharing job
    assertThat(info(s, 3).getNodes()).isEqualTo("n1"); // backfilled: it ends no later than job 1

    ClusterState t = cluster(1, 4000, "YES:4");
    t = submit(t, 1, 1000, job(6));
    t = submit(t, 2, 1000, job(4).setOversubscribe(true));
    t = submit(t, 3, 1000, job(2).setOversubscribe(true));
    t = schedule(t, NOW);
    assertThat(info(t, 1).getNodes()).isEqualTo("n1");
    assertThat(info(t, 2).getStateReason()).isEqualTo("Resources"); // 2 CPUs free of job 1: too few to share
    assertThat(info(t, 3).getNodes()).isEqualTo("n1");
  }

  @Test
  void withoutOverSubscribeOrInAPartitionWithNoSharingAsksAreIgnored() {
    ClusterState s = cluster(1, 4000, "NO");
    s = submit(s, 1, 1000, job(8).setOversubscribe(true));
    s = submit(s, 2, 1000, job(8).setOversubscribe(true));
    s = schedule(s, NOW);
    assertThat(info(s, 1).getNodes()).isEqualTo("n1");
    assertThat(info(s, 2).getStateReason()).isEqualTo("Resources");
  }

  @Test
  void memoryStaysALimit() {
    ClusterState s = cluster(1, 4000, "FORCE:4");
    s = submit(s, 1, 1000, job(8).setOversubscribe(true).clearMemPerCpuMb().setMemPerNodeMb(3000));
    s = submit(s, 2, 1000, job(8).setOversubscribe(true).clearMemPerCpuMb().setMemPerNodeMb(2000));
    s = submit(s, 3, 1000, job(8).setOversubscribe(true).clearMemPerCpuMb().setMemPerNodeMb(1000));
    s = schedule(s, NOW);
    assertThat(info(s, 1).getNodes()).isEqualTo("n1");
    assertThat(info(s, 2).getStateReason()).isEqualTo("Resources");
  }

  @Test
  void backfillPlansSharingJobsBesideTheirSharers() {
    ClusterState s = cluster(1, 8000, "YES:2");
    s = submit(s, 1, 1000, job(8).setOversubscribe(true).setTimeLimitMin(60));
    s = submit(s, 2, 1000, job(8).setOversubscribe(true).setTimeLimitMin(30));
    s = submit(s, 3, 1000, job(8).setOversubscribe(true).setTimeLimitMin(60));
    s = schedule(s, NOW);
    assertThat(info(s, 2).getNodes()).isEqualTo("n1");
    assertThat(info(s, 3).getStartTime()).isEqualTo(NOW + 30 * 60); // when job 2 leaves its place
  }

  @Test
  void anExclusiveUserJobKeepsOtherUsersOffItsNode() {
    ClusterState s = cluster(2, 8000, "NO");
    s = submit(s, 1, 1001, job(1).setExclusiveUser(true));
    s = submit(s, 2, 1002, job(1));
    s = submit(s, 3, 1001, job(1));
    s = submit(s, 4, 1002, job(1).setExclusiveUser(true));
    s = schedule(s, NOW);
    assertThat(info(s, 1).getNodes()).isEqualTo("n1");
    assertThat(info(s, 2).getNodes()).isEqualTo("n2"); // bob's job goes elsewhere
    assertThat(info(s, 3).getNodes()).isEqualTo("n1"); // alice's own jobs may join it
    assertThat(info(s, 4).getNodes()).isEqualTo("n2"); // bob's exclusive job beside bob's own

    ClusterState one = cluster(1, 8000, "NO");
    one = submit(one, 1, 1001, job(1).setExclusiveUser(true));
    one = submit(one, 2, 1002, job(1));
    one = schedule(one, NOW);
    assertThat(info(one, 2).getStateReason()).isEqualTo("Resources");
    assertThat(info(one, 2).getStartTime()).isEqualTo(NOW + 60 * 60); // when alice's job ends
  }

  @Test
  void anExclusiveUserJobWaitsForOtherUsersToLeaveAndBackfillRespectsItsReservation() {
    ClusterState s = cluster(1, 8000, "NO");
    s = submit(s, 1, 1001, job(4).setTimeLimitMin(60));
    s = schedule(s, NOW);
    s = submit(s, 2, 1002, job(2).setExclusiveUser(true).setTimeLimitMin(60));
    s = submit(s, 3, 1003, job(1).setTimeLimitMin(120));
    s = submit(s, 4, 1003, job(1).setTimeLimitMin(30));
    s = schedule(s, NOW + 1);
    assertThat(info(s, 2).getStateReason()).isEqualTo("Resources");
    assertThat(info(s, 2).getStartTime()).isEqualTo(NOW + 60 * 60);
    assertThat(info(s, 3).getNodes()).isEmpty(); // would still run when bob's starts
    assertThat(info(s, 4).getNodes()).isEqualTo("n1"); // ends before: backfilled
  }

  @Test
  void theWritersCheckRefusesAStartAnotherUsersExclusiveJobNowForbids() {
    ClusterState s = cluster(1, 8000, "NO");
    s = submit(s, 1, 1002, job(1));
    Plan plan = Planner.plan(s, NOW);
    s = submit(s, 2, 1001, job(1).setExclusiveUser(true));
    s = StateMachine.apply(s, new Command.StartJob(2, NOW, plan.starts().get(0).allocation()));
    assertThat(PlanCheck.accept(s, plan, NOW)).noneMatch(c -> c instanceof Command.StartJob);
  }

  @Test
  void shareLimitsFromThePartitionsWord() {
    assertThat(Tenancy.shareLimit("YES:3")).isEqualTo(3);
    assertThat(Tenancy.shareLimit("FORCE")).isEqualTo(4);
    assertThat(Tenancy.shareLimit("NO")).isEqualTo(1);
    assertThat(Tenancy.shareLimit("EXCLUSIVE")).isEqualTo(1);
  }
}

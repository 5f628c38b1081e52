package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmDuration;
import org.corral.common.config.PreemptConfig;
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
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;

/** Preemption by partition PriorityTier and by QOS, for each PreemptMode. */
class PreemptionPlanningTest {
  static final PreemptConfig PARTITION_PRIO = new PreemptConfig("preempt/partition_prio", "REQUEUE", 0);

  /** One partition per {tier, mode, grace} triple ("p" + tier), all over the same nodes. */
  static ClusterState cluster(int nodes, int cpus, Object[]... partitions) {
    List<NodeInfo> ns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= nodes; i++) {
      names.add("n" + i);
      ns.add(NodeInfo.newBuilder().setName("n" + i).setCpus(cpus).setRealMemoryMb(8000).setWeight(1).build());
    }
    List<PartitionInfo> ps = new ArrayList<>();
    for (Object[] p : partitions) {
      ps.add(PartitionInfo.newBuilder().setName("p" + p[0]).addAllNodeNames(names).setState("UP")
          .setMaxTimeMin((int) SlurmDuration.INFINITE).setMaxNodes((int) SlurmDuration.INFINITE)
          .setPriorityTier((int) p[0]).setPreemptMode((String) p[1]).setGraceTime((int) p[2]).build());
    }
    ClusterState s = StateMachine.apply(ClusterState.empty(1), new Command.LoadConfig(ns, ps, 100));
    for (int i = 1; i <= nodes; i++) {
      s = StateMachine.apply(s, new Command.NodeRegistered("n" + i, 100, cpus, 8000, 1, 2, "v", "Linux", "x86_64"));
    }
    return s;
  }

  static ClusterState submit(ClusterState s, int id, String partition, int cpus, long time) {
    return TestStates.submit(s, id, TestStates.spec().setPartition(partition).setNumTasks(cpus).setRequeue(true).build(), time);
  }

  static Plan plan(ClusterState s, long now, PreemptConfig cfg, AssocTree tree) {
    return Planner.plan(s, now, SchedulingConfig.DEFAULTS, LimitCheck.NONE, Map.of(), cfg, tree);
  }

  static ClusterState apply(ClusterState s, Plan p, long now) {
    for (Command c : PlanCheck.accept(s, p, now)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  static JobInfo job(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  /** Low-tier job 1 fills the node; high-tier job 2 arrives. */
  static ClusterState lowRunningHighPending(String lowMode, int grace) {
    ClusterState s = cluster(1, 8, new Object[] {1, lowMode, grace}, new Object[] {2, "OFF", 0});
    s = submit(s, 1, "p1", 8, 1000);
    s = apply(s, plan(s, 1001, PARTITION_PRIO, AssocTree.NONE), 1001);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.RUNNING);
    return submit(s, 2, "p2", 8, 1100);
  }

  @Test
  void requeueModePutsTheLowTierJobBackInTheQueueAndTheHighOneStartsOnceItIsGone() {
    ClusterState s = lowRunningHighPending("REQUEUE", 0);
    Plan p = plan(s, 1200, PARTITION_PRIO, AssocTree.NONE);
    assertThat(p.preemptions()).containsExactly(new Command.PreemptJob(1, 1200, "REQUEUE", 0));
    assertThat(p.starts()).isEmpty();
    assertThat(p.reasons()).containsEntry(2, "Resources");
    s = apply(s, p, 1200);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PENDING);
    assertThat(job(s, 1).getCompleting()).isTrue();
    assertThat(plan(s, 1201, PARTITION_PRIO, AssocTree.NONE).preemptions()).isEmpty(); // already on its way out
    s = StateMachine.apply(s, new Command.JobEnded(1, 1202, 15, "n1"));
    assertThat(job(s, 1).getStateReason()).isEqualTo("BeginTime");
    assertThat(job(s, 1).getRestartCount()).isEqualTo(1);
    s = apply(s, plan(s, 1203, PARTITION_PRIO, AssocTree.NONE), 1203);
    assertThat(job(s, 2).getState()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void requeueModeCancelsAJobThatMayNotBeRequeued() {
    ClusterState s = cluster(1, 8, new Object[] {1, "REQUEUE", 0}, new Object[] {2, "OFF", 0});
    s = TestStates.submit(s, 1, TestStates.spec().setPartition("p1").setNumTasks(8).setRequeue(false).build(), 1000);
    s = apply(s, plan(s, 1001, PARTITION_PRIO, AssocTree.NONE), 1001);
    s = submit(s, 2, "p2", 8, 1100);
    s = apply(s, plan(s, 1200, PARTITION_PRIO, AssocTree.NONE), 1200);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PREEMPTED);
  }

  @Test
  void cancelModeEndsTheJobPreempted() {
    ClusterState s = lowRunningHighPending("CANCEL", 0);
    s = apply(s, plan(s, 1200, PARTITION_PRIO, AssocTree.NONE), 1200);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PREEMPTED);
    assertThat(job(s, 1).getEndTime()).isEqualTo(1200);
    s = StateMachine.apply(s, new Command.JobEnded(1, 1201, 15, "n1"));
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PREEMPTED);
    s = apply(s, plan(s, 1202, PARTITION_PRIO, AssocTree.NONE), 1202);
    assertThat(job(s, 2).getState()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void suspendModeStopsTheJobWhileThePreemptorRunsAndResumesItAfter() {
    ClusterState s = lowRunningHighPending("SUSPEND,GANG", 0);
    Plan p = plan(s, 1200, PARTITION_PRIO, AssocTree.NONE);
    assertThat(p.preemptions()).containsExactly(new Command.SuspendJob(1, 1200, false, true));
    s = apply(s, p, 1200);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.SUSPENDED);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero(); // its CPUs are free, its memory is not
    assertThat(s.node("n1").orElseThrow().getAllocMemMb()).isEqualTo(800);
    s = apply(s, plan(s, 1201, PARTITION_PRIO, AssocTree.NONE), 1201);
    assertThat(job(s, 2).getState()).isEqualTo(JobState.RUNNING);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.SUSPENDED); // not resumed beside it
    s = StateMachine.apply(s, new Command.JobEnded(2, 1500, 0, "n1"));
    p = plan(s, 1501, PARTITION_PRIO, AssocTree.NONE);
    assertThat(p.preemptions()).containsExactly(new Command.SuspendJob(1, 1501, true, true));
    s = apply(s, p, 1501);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.RUNNING);
    assertThat(job(s, 1).getEndTime()).isEqualTo(1001 + 3600 + 301); // its limit stood still while it was stopped
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isEqualTo(8);
  }

  @Test
  void offModeAndEqualTiersPreemptNothing() {
    ClusterState s = lowRunningHighPending("OFF", 0);
    assertThat(plan(s, 1200, PARTITION_PRIO, AssocTree.NONE).preemptions()).isEmpty();
    ClusterState same = cluster(1, 8, new Object[] {1, "REQUEUE", 0});
    same = submit(same, 1, "p1", 8, 1000);
    same = apply(same, plan(same, 1001, PARTITION_PRIO, AssocTree.NONE), 1001);
    same = submit(same, 2, "p1", 8, 1100);
    assertThat(plan(same, 1200, PARTITION_PRIO, AssocTree.NONE).preemptions()).isEmpty();
    assertThat(plan(lowRunningHighPending("REQUEUE", 0), 1200, PreemptConfig.NONE, AssocTree.NONE).preemptions())
        .isEmpty();
  }

  @Test
  void graceTimeLetsTheJobRunUntilItsNewEndThenPreemptsIt() {
    ClusterState s = lowRunningHighPending("CANCEL", 30);
    Plan p = plan(s, 1200, PARTITION_PRIO, AssocTree.NONE);
    assertThat(p.preemptions()).containsExactly(new Command.PreemptJob(1, 1200, "CANCEL", 1230));
    s = apply(s, p, 1200);
    assertThat(job(s, 1).getState()).isEqualTo(JobState.RUNNING);
    assertThat(job(s, 1).getEndTime()).isEqualTo(1230);
    assertThat(plan(s, 1210, PARTITION_PRIO, AssocTree.NONE).preemptions()).isEmpty();
    s = StateMachine.apply(s, new Command.PreemptJob(1, 1230, "CANCEL", 0)); // what the controller logs at 1230
    assertThat(job(s, 1).getState()).isEqualTo(JobState.PREEMPTED);
    assertThat(job(s, 1).getPreempting()).isEmpty();
  }

  @Test
  void preemptsTheFewestLowestPriorityJobsThatMakeRoom() {
    ClusterState s = cluster(1, 8, new Object[] {1, "REQUEUE", 0}, new Object[] {2, "OFF", 0});
    s = submit(s, 1, "p1", 4, 1000);
    s = submit(s, 2, "p1", 2, 1001);
    s = submit(s, 3, "p1", 2, 1002);
    s = StateMachine.apply(s, new Command.UpdateJob(1, 1003, Map.of("priority", "50")));
    s = StateMachine.apply(s, new Command.UpdateJob(2, 1003, Map.of("priority", "10")));
    s = StateMachine.apply(s, new Command.UpdateJob(3, 1003, Map.of("priority", "20")));
    s = apply(s, plan(s, 1004, PARTITION_PRIO, AssocTree.NONE), 1004);
    s = submit(s, 4, "p2", 4, 1100);
    Plan p = plan(s, 1200, PARTITION_PRIO, AssocTree.NONE);
    // 2 and 3 (priorities 10 and 20) free 4 CPUs; 1 (priority 50, 4 CPUs alone) is spared
    assertThat(p.preemptions()).extracting(c -> ((Command.PreemptJob) c).jobId()).containsExactlyInAnyOrder(2, 3);
    s = submit(s, 5, "p2", 2, 1101);
    s = StateMachine.apply(s, new Command.CancelJob(4, 1102, 0));
    p = plan(s, 1200, PARTITION_PRIO, AssocTree.NONE);
    assertThat(p.preemptions()).extracting(c -> ((Command.PreemptJob) c).jobId()).containsExactly(2);
  }

  @Test
  void preemptExemptTimeProtectsYoungJobs() {
    ClusterState s = lowRunningHighPending("REQUEUE", 0);
    PreemptConfig exempt = new PreemptConfig("preempt/partition_prio", "REQUEUE", 600);
    assertThat(plan(s, 1200, exempt, AssocTree.NONE).preemptions()).isEmpty();
    assertThat(plan(s, 1700, exempt, AssocTree.NONE).preemptions()).hasSize(1);
  }

  @Test
  void qosPreemptionFollowsThePreemptListAndTheVictimsQosMode() {
    AssocTree tree = new AssocTree(AssocSnapshot.newBuilder()
        .addQos(AcctQos.newBuilder().setName("normal").setPreemptMode("CANCEL").setGraceTime(20))
        .addQos(AcctQos.newBuilder().setName("high").addPreempt("normal"))
        .addQos(AcctQos.newBuilder().setName("other")).build(), "");
    PreemptConfig byQos = new PreemptConfig("preempt/qos", "REQUEUE", 0);
    ClusterState s = cluster(1, 8, new Object[] {1, "OFF", 0});
    s = TestStates.submit(s, 1, TestStates.spec().setPartition("p1").setNumTasks(8).setQos("normal").build(), 1000);
    s = apply(s, plan(s, 1001, byQos, tree), 1001);
    ClusterState other = TestStates.submit(s, 2, TestStates.spec().setPartition("p1").setNumTasks(8).setQos("other").build(), 1100);
    assertThat(plan(other, 1200, byQos, tree).preemptions()).isEmpty();
    s = TestStates.submit(s, 2, TestStates.spec().setPartition("p1").setNumTasks(8).setQos("high").build(), 1100);
    assertThat(plan(s, 1200, byQos, tree).preemptions()).containsExactly(new Command.PreemptJob(1, 1200, "CANCEL", 1220));
  }
}

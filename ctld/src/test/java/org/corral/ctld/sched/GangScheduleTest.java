package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmDuration;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;

/** Gang scheduling (PreemptMode=GANG): jobs sharing CPUs take turns every time slice. */
class GangScheduleTest {
  static final long SLICE = 30;

  /** One node "n1" of {@code cpus} CPUs in every partition given as {name, tier, OverSubscribe}. */
  static ClusterState cluster(int cpus, Object[]... partitions) {
    return cluster(1, cpus, partitions);
  }

  /** Nodes "n1".. of {@code cpus} CPUs each, all in every partition given as {name, tier, OverSubscribe}. */
  static ClusterState cluster(int nodes, int cpus, Object[]... partitions) {
    List<NodeInfo> ns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= nodes; i++) {
      NodeInfo.Builder n = NodeInfo.newBuilder().setName("n" + i).setCpus(cpus).setRealMemoryMb(8000).setWeight(1);
      for (Object[] p : partitions) {
        n.addPartitions((String) p[0]);
      }
      ns.add(n.build());
      names.add("n" + i);
    }
    List<PartitionInfo> ps = new ArrayList<>();
    for (Object[] p : partitions) {
      ps.add(PartitionInfo.newBuilder().setName((String) p[0]).addAllNodeNames(names).setState("UP")
          .setMaxTimeMin((int) SlurmDuration.INFINITE).setMaxNodes((int) SlurmDuration.INFINITE)
          .setPriorityTier((int) p[1]).setPreemptMode("GANG").setOversubscribe((String) p[2]).build());
    }
    ClusterState s = StateMachine.apply(ClusterState.empty(1), new Command.LoadConfig(ns, ps, 100));
    for (int i = 1; i <= nodes; i++) {
      s = StateMachine.apply(s, new Command.NodeRegistered("n" + i, 100, cpus, 8000, 1, 2, "v", "Linux", "x86_64"));
    }
    return s;
  }

  static ClusterState cluster(int cpus, String oversubscribe) {
    return cluster(cpus, new Object[] {"p", 1, oversubscribe});
  }

  /** Job {@code id} of {@code cpus} CPUs and a 10-minute limit submitted to partition {@code p} (shares, as FORCE makes every job at submit) and started at {@code now}. */
  static ClusterState start(ClusterState s, int id, String p, int cpus, long now) {
    s = TestStates.submit(s, id, TestStates.spec().setPartition(p).setNumTasks(cpus).setTimeLimitMin(10)
        .setOversubscribe(true).build(), now);
    for (Command c : PlanCheck.accept(s, Planner.plan(s, now), now)) {
      s = StateMachine.apply(s, c);
    }
    assertThat(info(s, id).getState()).as(info(s, id).getStateReason()).isEqualTo(JobState.RUNNING);
    return s;
  }

  /** The gang's turns at {@code now}, applied. */
  static ClusterState turn(ClusterState s, long now) {
    for (Command c : GangSchedule.turns(s, now, SLICE)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  static JobInfo info(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  static List<Integer> running(ClusterState s, int... ids) {
    List<Integer> out = new ArrayList<>();
    for (int id : ids) {
      if (info(s, id).getState() == JobState.RUNNING) {
        out.add(id);
      }
    }
    return out;
  }

  @Test
  void twoJobsOnOneCpuTakeTurnsEverySlice() {
    ClusterState s = start(cluster(1, "FORCE:2"), 1, "p", 1, 1000);
    s = start(s, 2, "p", 1, 1005); // allocated beside job 1 (FORCE:2)...
    s = turn(s, 1005); // ...and waits, as Slurm's gang scheduler makes a new job wait
    assertThat(running(s, 1, 2)).containsExactly(1);
    assertThat(info(s, 2).getGangSuspended()).isTrue();
    assertThat(s.nodes().get("n1").getAllocCpus()).isEqualTo(2); // a waiting job keeps its CPUs allocated
    assertThat(GangSchedule.turns(s, 1029, SLICE)).isEmpty();

    s = turn(s, 1030); // job 1's slice is over
    assertThat(running(s, 1, 2)).containsExactly(2);
    assertThat(info(s, 2).getEndTime()).isEqualTo(1005 + 600 + 25); // moved by the 25 s it waited
    assertThat(info(s, 1).getSuspendTime()).isEqualTo(1030);
    assertThat(GangSchedule.turns(s, 1059, SLICE)).isEmpty();

    s = turn(s, 1060);
    assertThat(running(s, 1, 2)).containsExactly(1);
    assertThat(info(s, 1).getEndTime()).isEqualTo(1000 + 600 + 30);
    assertThat(info(s, 2).getPreSuspendSecs()).isEqualTo(30);
    s = turn(s, 1090);
    assertThat(running(s, 1, 2)).containsExactly(2);
  }

  /** Jobs 1, 2 and 3 on one CPU of a FORCE:3 partition, started at 1000, 1001 and 1002: job 1 runs. */
  static ClusterState threeOnOneCpu() {
    ClusterState s = start(cluster(1, "FORCE:3"), 1, "p", 1, 1000);
    s = start(s, 2, "p", 1, 1001);
    s = start(s, 3, "p", 1, 1002);
    return turn(s, 1002);
  }

  @Test
  void threeJobsOnOneCpuRunInTurnEachForASlice() {
    ClusterState s = threeOnOneCpu();
    assertThat(running(s, 1, 2, 3)).containsExactly(1);
    List<Integer> order = new ArrayList<>();
    for (long t = 1030; t <= 1030 + 5 * SLICE; t += SLICE) {
      s = turn(s, t);
      assertThat(running(s, 1, 2, 3)).hasSize(1);
      order.add(running(s, 1, 2, 3).get(0));
    }
    assertThat(order).containsExactly(2, 3, 1, 2, 3, 1);
  }

  @Test
  void aFourthJobWaitsInTheQueueWhenEveryCpuHoldsItsLimit() {
    ClusterState s = threeOnOneCpu();
    s = TestStates.submit(s, 4, TestStates.spec().setPartition("p").setNumTasks(1).setOversubscribe(true).build(), 1003);
    Plan p = Planner.plan(s, 1004);
    assertThat(p.starts()).isEmpty(); // the waiting jobs count against N: three allocated already
    assertThat(p.reasons()).containsEntry(4, "Resources");
  }

  @Test
  void jobsOnCpusOfTheirOwnAreNotRotated() {
    ClusterState s = start(cluster(2, "FORCE:2"), 1, "p", 1, 1000);
    s = start(s, 2, "p", 1, 1001); // on the idle CPU
    assertThat(GangSchedule.turns(s, 1001, SLICE)).isEmpty();
    assertThat(GangSchedule.turns(s, 5000, SLICE)).isEmpty();
  }

  @Test
  void aJobEndingLetsTheNextResumeAtOnce() {
    ClusterState s = threeOnOneCpu();
    s = StateMachine.apply(s, new Command.JobEnded(1, 1010, 0, "n1"));
    s = turn(s, 1010); // within job 1's slice: job 2, waiting longest, runs now
    assertThat(running(s, 2, 3)).containsExactly(2);
    assertThat(info(s, 2).getSuspendTime()).isEqualTo(1010);
    s = turn(s, 1040);
    assertThat(running(s, 2, 3)).containsExactly(3);
  }

  @Test
  void jobsOfDifferentTiersOrPartitionsAreNotRotatedAgainstEachOther() {
    ClusterState s = cluster(1, new Object[] {"lo", 1, "FORCE:2"}, new Object[] {"hi", 2, "FORCE:2"},
        new Object[] {"other", 1, "FORCE:2"});
    s = start(s, 1, "lo", 1, 1000);
    s = start(s, 2, "hi", 1, 1001);
    assertThat(GangSchedule.turns(s, 1001, SLICE)).isEmpty();
    assertThat(GangSchedule.turns(s, 1100, SLICE)).isEmpty();
    // time-slicing never happens between jobs of different partitions (slurm.conf PreemptMode GANG)
    ClusterState same = cluster(1, new Object[] {"lo", 1, "FORCE:2"}, new Object[] {"other", 1, "FORCE:2"});
    same = start(start(same, 1, "lo", 1, 1000), 2, "other", 1, 1001);
    assertThat(GangSchedule.turns(same, 1100, SLICE)).isEmpty();
  }

  @Test
  void aWaitingJobSuspendedByAnOperatorLeavesTheRotationAndGivesItsCpusBack() {
    ClusterState s = start(cluster(1, "FORCE:2"), 1, "p", 1, 1000);
    s = turn(start(s, 2, "p", 1, 1001), 1001);
    s = StateMachine.apply(s, new Command.SuspendJob(2, 1010, false, false));
    assertThat(info(s, 2).getGangSuspended()).isFalse();
    assertThat(s.nodes().get("n1").getAllocCpus()).isEqualTo(1);
    assertThat(GangSchedule.turns(s, 1100, SLICE)).isEmpty(); // job 1 runs on; job 2 waits for scontrol resume
    s = StateMachine.apply(s, new Command.SuspendJob(2, 1200, true, false));
    assertThat(s.nodes().get("n1").getAllocCpus()).isEqualTo(2);
    s = turn(s, 1200); // back in the rotation: the job whose slice is over gives way
    assertThat(running(s, 1, 2)).containsExactly(2);
  }

  @Test
  void cancellingAWaitingJobFreesItsCpusOnce() {
    ClusterState s = start(cluster(1, "FORCE:2"), 1, "p", 1, 1000);
    s = turn(start(s, 2, "p", 1, 1001), 1001);
    s = StateMachine.apply(s, new Command.CancelJob(2, 1010, 0));
    s = StateMachine.apply(s, new Command.JobEnded(2, 1011, 15, "n1"));
    assertThat(s.nodes().get("n1").getAllocCpus()).isEqualTo(1);
  }

  @Test
  void aGangTurnIsJournaledAsSuch() throws Exception {
    Command c = new Command.SuspendJob(7, 1234, false, false, true);
    assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
  }
}

package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.sched.priority.UsageTracker;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * The billing TRES a job carries: its request's at submit, its allocation's at start, from its
 * partition's TRESBillingWeights (slurm.conf's example: CPU=1.0,Mem=0.25G,GRES/gpu=2.0).
 */
class JobBillingTest {
  private static final String WEIGHTS = "CPU=1.0,Mem=0.25G,GRES/gpu=2.0";

  /** Two nodes of 8 CPUs and 32 GB in partition debug, with these weights. */
  private static ClusterState cluster(String weights, boolean maxTres) {
    ClusterState s = TestStates.cluster(2, 8, 32768);
    PartitionInfo p = s.partitions().get(0).toBuilder().setTresBillingWeights(weights)
        .setBillingMaxTres(maxTres).build();
    return StateMachine.apply(s, new Command.LoadConfig(s.nodesInOrder(), List.of(p), 100));
  }

  private static NodeAllocation node(String name, int cpus, long memMb, int... gpus) {
    NodeAllocation.Builder a = NodeAllocation.newBuilder().setNode(name).setCpus(cpus).setMemMb(memMb);
    if (gpus.length > 0) {
      GresAlloc.Builder g = GresAlloc.newBuilder().setName("gpu");
      for (int i : gpus) {
        g.addIndices(i);
      }
      a.addGres(g);
    }
    return a.build();
  }

  @Test
  void documentedExampleAtSubmitAndAtStart() {
    ClusterState s = TestStates.submit(cluster(WEIGHTS, false), 1,
        TestStates.spec().setNumTasks(1).clearMemPerCpuMb().setMemPerNodeMb(8192).build(), 100);
    assertThat(s.job(1).orElseThrow().getInfo().getReqBilling()).isEqualTo(3.0);
    s = StateMachine.apply(s, new Command.StartJob(1, 110, List.of(node("n1", 1, 8192))));
    JobInfo j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getBilling()).isEqualTo(3.0);
    AcctJob acct = AccountingRecords.of(s.job(1).orElseThrow());
    assertThat(acct.getReqBilling()).isEqualTo(3);
    assertThat(acct.getAllocBilling()).isEqualTo(3);
  }

  @Test
  void maxTresTakesTheLargestNodeLevelTres() {
    ClusterState s = TestStates.submit(cluster(WEIGHTS, true), 1, TestStates.spec().setNumTasks(1).build(), 100);
    s = StateMachine.apply(s, new Command.StartJob(1, 110, List.of(node("n1", 1, 8192))));
    assertThat(s.job(1).orElseThrow().getInfo().getBilling()).isEqualTo(2.0); // MAX(1*1.0, 8*0.25)
  }

  @Test
  void allocationOverNodesWithGpusSumsEveryNode() {
    ClusterState s = TestStates.submit(cluster(WEIGHTS, false), 1,
        TestStates.spec().setMinNodes(2).setNumTasks(2).setTresPerNode("gres:gpu:1").build(), 100);
    // request: 2 CPUs, 2 x 100 MB, 2 GPUs: 2 + 0.0488... + 4
    assertThat(s.job(1).orElseThrow().getInfo().getReqBilling()).isCloseTo(6.0488, org.assertj.core.data.Offset.offset(1e-3));
    s = StateMachine.apply(s, new Command.StartJob(1, 110, List.of(node("n1", 2, 2048, 0), node("n2", 2, 2048, 1))));
    assertThat(s.job(1).orElseThrow().getInfo().getBilling()).isEqualTo(4 + 1 + 4.0);
    assertThat(AccountingRecords.of(s.job(1).orElseThrow()).getReqBilling()).isEqualTo(6);
  }

  @Test
  void withoutWeightsTheCpusAreBilled() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 32768), 1, TestStates.spec().setNumTasks(3).build(), 100);
    assertThat(s.job(1).orElseThrow().getInfo().getReqBilling()).isEqualTo(3.0);
    s = StateMachine.apply(s, new Command.StartJob(1, 110, List.of(node("n1", 4, 400))));
    assertThat(s.job(1).orElseThrow().getInfo().getBilling()).isEqualTo(4.0);
  }

  @Test
  void fairshareChargesBillingSecondsAndTimeLimitsCpuSeconds() {
    ClusterState s = TestStates.submit(cluster(WEIGHTS, false), 1,
        TestStates.spec().setNumTasks(1).clearMemPerCpuMb().setMemPerNodeMb(8192).build(), 100);
    s = StateMachine.apply(s, new Command.StartJob(1, 100, List.of(node("n1", 1, 8192))));
    UsageTracker usage = new UsageTracker(0); // no decay
    usage.update(s, 100);
    usage.update(s, 200);
    assertThat(usage.usage()).containsEntry("alice", 300.0); // billing 3 for 100 s
    assertThat(usage.byAssoc().values()).containsExactly(300.0);
    assertThat(usage.timeUsage(s, 200).byAssoc().values())
        .allSatisfy(u -> assertThat(u.cpuSecs()).isEqualTo(100.0)); // GrpTRESMins cpu counts CPUs
  }
}

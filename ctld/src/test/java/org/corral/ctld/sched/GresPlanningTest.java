package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

/** GPUs as a consumable per node: which jobs start, which indices they get, what waits. */
class GresPlanningTest {
  static ClusterState applyAll(ClusterState s, long now) {
    for (Command c : PlanCheck.accept(s, Planner.plan(s, now), now)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  static GresSlot gpus(String type, int count, String cores) {
    return GresSlot.newBuilder().setName("gpu").setType(type).setCount(count).setCores(cores).build();
  }

  /** n nodes of 8 CPUs, each with these slots as it reported them. */
  static ClusterState cluster(int n, GresSlot... slots) {
    ClusterState s = TestStates.cluster(n, 8, 8000);
    for (int i = 1; i <= n; i++) {
      s = StateMachine.apply(s, new Command.NodeGres("n" + i, 100, List.of(slots)));
    }
    return s;
  }

  static JobInfo job(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  static List<Integer> gpuIndices(JobInfo j, String node) {
    return j.getAllocationList().stream().filter(a -> a.getNode().equals(node))
        .flatMap(a -> a.getGresList().stream()).flatMap(g -> g.getIndicesList().stream()).sorted().toList();
  }

  @Test
  void twoOneGpuJobsGetDifferentGpusAndAThirdWaitsForResources() {
    ClusterState s = cluster(1, gpus("", 2, ""));
    for (int id = 1; id <= 3; id++) {
      s = TestStates.submit(s, id, TestStates.spec().setTresPerNode("gres:gpu:1").build(), 1000 + id);
    }
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(0);
    assertThat(gpuIndices(job(s, 2), "n1")).containsExactly(1);
    assertThat(job(s, 3).getStateReason()).isEqualTo("Resources");
    assertThat(s.node("n1").orElseThrow().getGresUsedList()).containsExactly(
        GresAlloc.newBuilder().setName("gpu").addIndices(0).addIndices(1).build());
    s = StateMachine.apply(s, new Command.JobEnded(1, 2001, 0, "n1"));
    s = applyAll(s, 2002);
    assertThat(gpuIndices(job(s, 3), "n1")).containsExactly(0);
  }

  @Test
  void typedRequestsTakeOnlyTheirTypeAndUntypedAnyType() {
    ClusterState s = cluster(1, gpus("a100", 1, ""), gpus("v100", 2, ""));
    s = TestStates.submit(s, 1, TestStates.spec().setTresPerNode("gres:gpu:v100:2").build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().setTresPerNode("gres:gpu:v100:1").build(), 1002);
    s = TestStates.submit(s, 3, TestStates.spec().setTresPerNode("gres:gpu:1").build(), 1003);
    s = applyAll(s, 2000);
    assertThat(job(s, 1).getAllocation(0).getGresList()).containsExactly(
        GresAlloc.newBuilder().setName("gpu").setType("v100").addIndices(1).addIndices(2).build());
    assertThat(job(s, 2).getStateReason()).isEqualTo("Resources");
    assertThat(job(s, 3).getAllocation(0).getGresList()).containsExactly(
        GresAlloc.newBuilder().setName("gpu").setType("a100").addIndices(0).build());
  }

  @Test
  void gpusPerJobSpreadOverTheNodesAndPerTaskFollowTheTasks() {
    ClusterState s = cluster(2, gpus("", 2, ""));
    s = TestStates.submit(s, 1, TestStates.spec().setMinNodes(2).setNumTasks(2).setNtasksPerNode(1)
        .setTresPerJob("gres:gpu:3").build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().setNumTasks(1).setTresPerTask("gres:gpu:1").build(), 1002);
    s = applyAll(s, 2000);
    JobInfo spread = job(s, 1);
    assertThat(gpuIndices(spread, "n1")).containsExactly(0, 1);
    assertThat(gpuIndices(spread, "n2")).containsExactly(0);
    assertThat(gpuIndices(job(s, 2), "n2")).containsExactly(1);
  }

  @Test
  void cpusAndMemoryPerGpuScaleWithTheGpusOnTheNode() {
    ClusterState s = cluster(1, gpus("", 4, ""));
    s = TestStates.submit(s, 1, TestStates.spec().setTresPerJob("gres:gpu:2").setCpusPerTres("gres:gpu:3")
        .setMemPerTres("gres:gpu:500").build(), 1001);
    s = applyAll(s, 2000);
    NodeAllocation a = job(s, 1).getAllocation(0);
    assertThat(a.getCpus()).isEqualTo(6);
    assertThat(a.getMemMb()).isEqualTo(1000);
  }

  @Test
  void gpusCloseTogetherArePreferredWhenOneGroupHoldsTheRequest() {
    ClusterState s = cluster(1, gpus("", 1, "0-3"), gpus("", 2, "4-7"));
    s = TestStates.submit(s, 1, TestStates.spec().setTresPerNode("gres:gpu:2").build(), 1001);
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(1, 2);
  }

  @Test
  void aJobAskingMoreGpusThanAnyNodeHasNeverStarts() {
    ClusterState s = cluster(2, gpus("", 2, ""));
    s = TestStates.submit(s, 1, TestStates.spec().setTresPerNode("gres:gpu:3").build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().build(), 1002);
    s = applyAll(s, 2000);
    assertThat(job(s, 1).getStateReason()).isNotEqualTo("None").isNotEqualTo("Resources");
    assertThat(job(s, 2).getNodes()).isEqualTo("n1");
  }

  @Test
  void shardsShareAGpuButNeverWithAJobUsingItWhole() {
    GresSlot gpu = GresSlot.newBuilder().setName("gpu").setCount(2).addFiles("/dev/nvidia0").addFiles("/dev/nvidia1")
        .build();
    GresSlot shards0 = GresSlot.newBuilder().setName("shard").setCount(2).addFiles("/dev/nvidia0").build();
    GresSlot shards1 = GresSlot.newBuilder().setName("shard").setCount(2).addFiles("/dev/nvidia1").build();
    ClusterState s = cluster(1, gpu, shards0, shards1);
    s = TestStates.submit(s, 1, TestStates.spec().setTresPerNode("gres:shard:1").build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().setTresPerNode("gres:shard:1").build(), 1002);
    s = TestStates.submit(s, 3, TestStates.spec().setTresPerNode("gres:gpu:1").build(), 1003);
    s = TestStates.submit(s, 4, TestStates.spec().setTresPerNode("gres:shard:2").build(), 1004);
    s = applyAll(s, 2000);
    assertThat(job(s, 1).getAllocation(0).getGres(0).getGpuIndicesList()).containsExactly(0);
    assertThat(job(s, 2).getAllocation(0).getGres(0).getGpuIndicesList()).as("shares GPU 0").containsExactly(0);
    assertThat(gpuIndices(job(s, 3), "n1")).as("GPU 1 has no shard in use").containsExactly(1);
    assertThat(job(s, 4).getStateReason()).as("GPU 0's shards are taken, GPU 1 is used whole")
        .isEqualTo("Resources");
    s = StateMachine.apply(s, new Command.JobEnded(3, 2001, 0, "n1"));
    s = applyAll(s, 2002);
    assertThat(job(s, 4).getAllocation(0).getGres(0).getGpuIndicesList()).as("both shards of one GPU")
        .containsExactly(1);
  }

  @Test
  void gresCommandsReplayFromTheJournalToTheSameState() throws Exception {
    ClusterState s = TestStates.cluster(1, 8, 8000);
    ClusterState replayed = s;
    List<Command> cmds = new java.util.ArrayList<>();
    cmds.add(new Command.NodeGres("n1", 100, List.of(gpus("a100", 2, "0-3"))));
    for (Command c : cmds) {
      s = StateMachine.apply(s, c);
    }
    s = TestStates.submit(s, 1, TestStates.spec().setTresPerNode("gres:gpu:a100:1").build(), 1001);
    replayed = TestStates.submit(StateMachine.apply(replayed, cmds.get(0)), 1,
        TestStates.spec().setTresPerNode("gres:gpu:a100:1").build(), 1001);
    for (Command c : PlanCheck.accept(s, Planner.plan(s, 2000), 2000)) {
      s = StateMachine.apply(s, c);
      cmds.add(c);
    }
    for (Command c : cmds.subList(1, cmds.size())) {
      Command decoded = org.corral.ctld.state.CommandCodec.decode(org.corral.ctld.state.CommandCodec.encode(c));
      assertThat(decoded).isEqualTo(c);
      replayed = StateMachine.apply(replayed, decoded);
    }
    Command nodeGres = org.corral.ctld.state.CommandCodec.decode(org.corral.ctld.state.CommandCodec.encode(cmds.get(0)));
    assertThat(nodeGres).isEqualTo(cmds.get(0));
    assertThat(replayed.node("n1")).isEqualTo(s.node("n1"));
    assertThat(replayed.node("n1").orElseThrow().getGresUsedList()).hasSize(1);
  }

  @Test
  void backfillKeepsTheGpusPromisedToAnEarlierJob() {
    ClusterState s = cluster(1, gpus("", 2, ""));
    s = TestStates.submit(s, 1, TestStates.spec().setTimeLimitMin(60).setTresPerNode("gres:gpu:1").build(), 1001);
    s = applyAll(s, 2000); // job 1 holds GPU 0 until 2000 + 3600
    s = TestStates.submit(s, 2, TestStates.spec().setTimeLimitMin(60).setTresPerNode("gres:gpu:2").build(), 2001);
    s = TestStates.submit(s, 3, TestStates.spec().setTimeLimitMin(120).setTresPerNode("gres:gpu:1").build(), 2002);
    s = TestStates.submit(s, 4, TestStates.spec().setTimeLimitMin(30).setTresPerNode("gres:gpu:1").build(), 2003);
    s = TestStates.submit(s, 5, TestStates.spec().setTimeLimitMin(120).build(), 2004);
    s = applyAll(s, 2010);
    assertThat(job(s, 2).getStateReason()).isEqualTo("Resources");
    assertThat(job(s, 2).getStartTime()).isEqualTo(2000 + 3600);
    assertThat(job(s, 3).getNodes()).as("would hold a GPU past job 2's planned start").isEmpty();
    assertThat(gpuIndices(job(s, 4), "n1")).as("ends before job 2 starts").containsExactly(1);
    assertThat(job(s, 5).getNodes()).as("needs no GPU").isEqualTo("n1");
  }
}

package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.corral.ctld.sched.GresPlanningTest.applyAll;
import static org.corral.ctld.sched.GresPlanningTest.cluster;
import static org.corral.ctld.sched.GresPlanningTest.gpuIndices;
import static org.corral.ctld.sched.GresPlanningTest.job;

import java.util.BitSet;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.CpuList;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

/**
 * The CPUs the controller gives a job on each node: free ones, near its GPUs first; and
 * --gres-flags=enforce-binding, which takes only CPUs near its GPUs, exchanging GPUs whose near
 * CPUs are busy for free ones whose are not, or waits.
 */
class GresBindingPlanningTest {
  private static GresSlot gpu(int i, String cores) {
    return GresSlot.newBuilder().setName("gpu").setCount(1).addFiles("/dev/nvidia" + i).setCores(cores).build();
  }

  // 8 CPUs: GPU 0 near 0-3, GPU 1 near 4-7
  private static ClusterState twoSockets() {
    return cluster(1, gpu(0, "0-3"), gpu(1, "4-7"));
  }

  private static ClusterState submit(ClusterState s, int id, int cpus, String gres, String flags) {
    JobSpec.Builder b = TestStates.spec().setNumTasks(1).setCpusPerTask(cpus).setGresFlags(flags);
    if (!gres.isEmpty()) {
      b.setTresPerNode(gres);
    }
    return TestStates.submit(s, id, b.build(), 1000 + id);
  }

  private static String cpuIds(ClusterState s, int id) {
    return job(s, id).getAllocation(0).getCpuIds();
  }

  @Test
  void jobsGetDistinctCpusAndAGpuJobThoseNearItsGpu() {
    ClusterState s = twoSockets();
    s = submit(s, 1, 2, "", "");
    s = applyAll(s, 2000);
    s = submit(s, 2, 2, "gres:gpu:1", "");
    s = applyAll(s, 2001);
    assertThat(cpuIds(s, 1)).isEqualTo("0-1");
    assertThat(gpuIndices(job(s, 2), "n1")).containsExactly(0);
    assertThat(cpuIds(s, 2)).as("free and near GPU 0").isEqualTo("2-3");
    s = submit(s, 3, 3, "", "");
    s = applyAll(s, 2002);
    assertThat(cpuIds(s, 3)).isEqualTo("4-6");
  }

  @Test
  void withoutEnforceBindingAGpuJobTakesFarCpusWhenNearOnesAreBusy() {
    ClusterState s = twoSockets();
    s = submit(s, 1, 4, "", "");
    s = applyAll(s, 2000);
    s = submit(s, 2, 2, "gres:gpu:1", "");
    s = applyAll(s, 2001);
    assertThat(gpuIndices(job(s, 2), "n1")).containsExactly(0);
    assertThat(cpuIds(s, 2)).isEqualTo("4-5");
  }

  @Test
  void enforceBindingTakesTheGpuWhoseNearCpusAreFree() {
    ClusterState s = twoSockets();
    s = submit(s, 1, 4, "", "");
    s = applyAll(s, 2000);
    assertThat(cpuIds(s, 1)).isEqualTo("0-3");
    s = submit(s, 2, 2, "gres:gpu:1", "enforce-binding");
    s = applyAll(s, 2001);
    assertThat(gpuIndices(job(s, 2), "n1")).as("GPU 0's CPUs are busy").containsExactly(1);
    assertThat(cpuIds(s, 2)).isEqualTo("4-5");
  }

  @Test
  void enforceBindingWaitsWhenNoGpusNearCpusAreFree() {
    ClusterState s = twoSockets();
    s = submit(s, 1, 3, "", "");
    s = applyAll(s, 2000);
    s = submit(s, 2, 3, "gres:gpu:1", "");
    s = applyAll(s, 2001);
    assertThat(cpuIds(s, 1)).isEqualTo("0-2");
    assertThat(gpuIndices(job(s, 2), "n1")).containsExactly(0);
    assertThat(cpuIds(s, 2)).as("near GPU 0 first: CPU 3, then the lowest free").isEqualTo("3-5");
    // GPU 1 is free with 2 CPUs of the 8 (6 and 7), both near it: 3 bound do not fit, 2 do
    ClusterState busy = s;
    s = applyAll(submit(busy, 3, 3, "gres:gpu:1", "enforce-binding"), 2002);
    assertThat(job(s, 3).getState()).isEqualTo(org.corral.protocol.msg.JobState.PENDING);
    assertThat(job(s, 3).getStateReason()).isEqualTo("Resources");
    s = applyAll(submit(busy, 4, 2, "gres:gpu:1", "enforce-binding"), 2002);
    assertThat(job(s, 4).getState()).isEqualTo(org.corral.protocol.msg.JobState.RUNNING);
    assertThat(cpuIds(s, 4)).isEqualTo("6-7");
  }

  @Test
  void cpuIdsChoiceUnit() {
    CpuIds ids = new CpuIds(8);
    BitSet near = CpuList.parse("4-7");
    assertThat(CpuList.format(ids.choose(2, near, false))).isEqualTo("4-5");
    ids.take(CpuList.parse("0-5"));
    assertThat(CpuList.format(ids.choose(3, near, false))).as("then the least held, near first").isEqualTo("4,6-7");
    assertThat(ids.choose(3, near, true)).as("only 6-7 near and free").isNull();
    assertThat(CpuList.format(ids.choose(2, new BitSet(), true))).as("no Cores=: not bound").isEqualTo("6-7");
  }
}

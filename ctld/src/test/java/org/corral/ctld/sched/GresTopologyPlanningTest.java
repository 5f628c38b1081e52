package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.corral.ctld.sched.GresPlanningTest.applyAll;
import static org.corral.ctld.sched.GresPlanningTest.cluster;
import static org.corral.ctld.sched.GresPlanningTest.gpuIndices;
import static org.corral.ctld.sched.GresPlanningTest.job;

import java.util.ArrayList;
import java.util.List;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.junit.jupiter.api.Test;

/** Which GPUs a job gets: NVLink-joined sets after core affinity, and mps on one GPU never used whole. */
class GresTopologyPlanningTest {
  private static GresSlot gpu(int i, String cores, String links) {
    return GresSlot.newBuilder().setName("gpu").setCount(1).addFiles("/dev/nvidia" + i).setCores(cores)
        .setLinks(links).build();
  }

  private static GresSlot mps(int gpu, int count) {
    return GresSlot.newBuilder().setName("mps").setCount(count).addFiles("/dev/nvidia" + gpu).build();
  }

  private static ClusterState submit(ClusterState s, int id, String tresPerNode) {
    return TestStates.submit(s, id, TestStates.spec().setTresPerNode(tresPerNode).build(), 1000 + id);
  }

  private static List<GresAlloc> gres(ClusterState s, int id) {
    return job(s, id).getAllocation(0).getGresList();
  }

  // GPU 0 and 2 joined by 4 NVLinks, 1 and 3 likewise; no links across the pairs
  private static final GresSlot[] CROSSED = {gpu(0, "", "-1,0,4,0"), gpu(1, "", "0,-1,0,4"),
      gpu(2, "", "4,0,-1,0"), gpu(3, "", "0,4,0,-1")};

  @Test
  void twoGpusAreANvlinkedPairNotTheLowestTwo() {
    ClusterState s = cluster(1, CROSSED);
    s = submit(s, 1, "gres:gpu:2");
    s = submit(s, 2, "gres:gpu:2");
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(0, 2);
    assertThat(gpuIndices(job(s, 2), "n1")).containsExactly(1, 3);
  }

  @Test
  void withoutLinksTheLowestFreeGpusAsBefore() {
    ClusterState s = cluster(1, gpu(0, "", ""), gpu(1, "", ""), gpu(2, "", ""), gpu(3, "", ""));
    s = submit(s, 1, "gres:gpu:2");
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(0, 1);
  }

  @Test
  void coreAffinityComesBeforeNvlink() {
    // GPUs 0 and 1 share socket 0 but no link; 0 and 2 are linked across sockets
    ClusterState s = cluster(1, gpu(0, "0-3", "-1,0,4,0"), gpu(1, "0-3", "0,-1,0,4"),
        gpu(2, "4-7", "4,0,-1,0"), gpu(3, "4-7", "0,4,0,-1"));
    s = submit(s, 1, "gres:gpu:2");
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(0, 1);
  }

  @Test
  void aGpuSetSpanningSocketsStillPrefersLinkedOnes() {
    List<GresSlot> eight = new ArrayList<>();
    for (int i = 0; i < 6; i++) { // 0-1-2 joined with each other only, 3-4-5 likewise
      StringBuilder l = new StringBuilder();
      for (int k = 0; k < 6; k++) {
        l.append(k == 0 ? "" : ",").append(k == i ? -1 : (k / 3 == i / 3 ? 2 : 0));
      }
      eight.add(gpu(i, "", l.toString()));
    }
    ClusterState s = cluster(1, eight.toArray(GresSlot[]::new));
    s = submit(s, 1, "gres:gpu:1");
    s = submit(s, 2, "gres:gpu:3");
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(0);
    assertThat(gpuIndices(job(s, 2), "n1")).as("1 and 2 would leave one link out").containsExactly(3, 4, 5);
  }

  @Test
  void mpsComesFromOneGpuAndNeverFromOneUsedWhole() {
    ClusterState s = cluster(1, GresSlot.newBuilder().setName("gpu").setCount(2).addFiles("/dev/nvidia0")
        .addFiles("/dev/nvidia1").build(), mps(0, 100), mps(1, 100));
    s = submit(s, 1, "gres:mps:60");
    s = submit(s, 2, "gres:mps:60");
    s = submit(s, 3, "gres:mps:30");
    s = submit(s, 4, "gres:gpu:1");
    s = applyAll(s, 2000);
    assertThat(gres(s, 1)).singleElement().satisfies(a -> {
      assertThat(a.getName()).isEqualTo("mps");
      assertThat(a.getIndicesList()).hasSize(60).allMatch(i -> i < 100);
      assertThat(a.getGpuIndicesList()).containsExactly(0);
    });
    assertThat(gres(s, 2)).singleElement().satisfies(a -> {
      assertThat(a.getIndicesList()).as("40 left on GPU 0: all 60 from GPU 1").allMatch(i -> i >= 100);
      assertThat(a.getGpuIndicesList()).containsExactly(1);
    });
    assertThat(gres(s, 3).get(0).getGpuIndicesList()).containsExactly(0);
    assertThat(job(s, 4).getStateReason()).as("both GPUs serve mps jobs").isEqualTo("Resources");
  }

  @Test
  void aGpuUsedWholeHasNoMpsToGive() {
    ClusterState s = cluster(1, GresSlot.newBuilder().setName("gpu").setCount(2).addFiles("/dev/nvidia0")
        .addFiles("/dev/nvidia1").build(), mps(0, 100), mps(1, 100));
    s = submit(s, 1, "gres:gpu:1");
    s = submit(s, 2, "gres:mps:50");
    s = submit(s, 3, "gres:mps:60");
    s = applyAll(s, 2000);
    assertThat(gpuIndices(job(s, 1), "n1")).containsExactly(0);
    assertThat(gres(s, 2).get(0).getGpuIndicesList()).containsExactly(1);
    assertThat(job(s, 3).getStateReason()).as("50 left on GPU 1, GPU 0 used whole").isEqualTo("Resources");
  }
}

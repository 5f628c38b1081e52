package org.corral.ctld.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepRecord;
import org.corral.protocol.msg.StepSpec;
import org.junit.jupiter.api.Test;

/** Which of the job's GPUs a step gets: all without asking, else the lowest free ones. */
class StepGresTest {
  private static final JobRecord JOB = JobRecord.newBuilder().setInfo(JobInfo.newBuilder().setJobId(7)
      .addAllocation(NodeAllocation.newBuilder().setNode("n1").addGres(GresAlloc.newBuilder().setName("gpu")
          .addIndices(1).addIndices(3)))).build();

  private static GresAlloc gpus(int... idx) {
    GresAlloc.Builder b = GresAlloc.newBuilder().setName("gpu");
    for (int i : idx) {
      b.addIndices(i);
    }
    return b.build();
  }

  @Test
  void aStepAskingNothingGetsAllTheJobsGpusAndOneAskingGetsTheLowest() throws Exception {
    assertThat(StepGres.choose(JOB, StepSpec.getDefaultInstance(), List.of("n1"), List.of(1)))
        .containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1, 3)).build());
    assertThat(StepGres.choose(JOB, StepSpec.newBuilder().setTresPerNode("gres:gpu:1").build(), List.of("n1"),
        List.of(1))).containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1)).build());
    assertThat(StepGres.choose(JOB, StepSpec.newBuilder().setTresPerTask("gres:gpu:1").build(), List.of("n1"),
        List.of(2))).containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1, 3)).build());
  }

  @Test
  void oneResourceAskedPerNodeAndPerTaskTakesTheLargerNotTheSum() throws Exception {
    // srun -n2 --gpus-per-task=1 --gpus-per-node=2 in a job of two GPUs: runs at once on 22.05
    assertThat(StepGres.choose(JOB, StepSpec.newBuilder().setTresPerNode("gres:gpu:2").setTresPerTask("gres:gpu:1")
        .build(), List.of("n1"), List.of(2)))
        .containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1, 3)).build());
    assertThat(StepGres.choose(JOB, StepSpec.newBuilder().setTresPerNode("gres:gpu:1").setTresPerTask("gres:gpu:1")
        .build(), List.of("n1"), List.of(2)))
        .containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1, 3)).build());
  }

  @Test
  void gpusPerStepAreSpreadOverItsNodes() throws Exception {
    JobRecord two = JOB.toBuilder().setInfo(JOB.getInfo().toBuilder().addAllocation(NodeAllocation.newBuilder()
        .setNode("n2").addGres(gpus(0)))).build();
    assertThat(StepGres.choose(two, StepSpec.newBuilder().setTresPerJob("gres:gpu:2").build(), List.of("n1", "n2"),
        List.of(1, 1))).containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1)).build(),
            NodeAllocation.newBuilder().setNode("n2").addGres(gpus(0)).build());
  }

  @Test
  void gpusOfARunningStepAreBusyAndMoreThanTheJobHasIsRefused() {
    StepRecord running = StepRecord.newBuilder().setSpec(StepSpec.newBuilder().setTresPerNode("gres:gpu:1"))
        .setInfo(StepInfo.newBuilder().setState(JobState.RUNNING)
            .addGres(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(1)))).build();
    JobRecord busy = JOB.toBuilder().addSteps(running).build();
    StepSpec one = StepSpec.newBuilder().setTresPerNode("gres:gpu:1").build();
    try {
      assertThat(StepGres.choose(busy, one, List.of("n1"), List.of(1)))
          .containsExactly(NodeAllocation.newBuilder().setNode("n1").addGres(gpus(3)).build());
    } catch (StepUnavailable e) {
      throw new AssertionError(e);
    }
    StepSpec two = StepSpec.newBuilder().setTresPerNode("gres:gpu:2").build();
    assertThatThrownBy(() -> StepGres.choose(busy, two, List.of("n1"), List.of(1)))
        .isInstanceOfSatisfying(StepUnavailable.class, e -> assertThat(e.error()).isEqualTo(SlurmError.NODES_BUSY));
    StepSpec three = StepSpec.newBuilder().setTresPerNode("gres:gpu:3").build();
    assertThatThrownBy(() -> StepGres.choose(JOB, three, List.of("n1"), List.of(1)))
        .isInstanceOfSatisfying(StepUnavailable.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.INSUFFICIENT_GRES));
  }
}

package org.corral.slurmd.gres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.CpuList;
import org.corral.protocol.msg.GresSlot;
import org.junit.jupiter.api.Test;

/** Which of its step's GPUs (node indices 0-3 here) each task sees under --gpu-bind. */
class GpuBindingTest {
  private static final List<Integer> STEP = List.of(0, 1, 2, 3);

  @Test
  void mapAndMaskNameTheNodesGpusTaskByTaskAndWrapAround() {
    assertThat(GpuBinding.forTask("map_gpu:3,1", STEP, 0, List.of())).containsExactly(3);
    assertThat(GpuBinding.forTask("map_gpu:3,1", STEP, 1, List.of())).containsExactly(1);
    assertThat(GpuBinding.forTask("map_gpu:3,1", STEP, 2, List.of())).containsExactly(3);
    assertThat(GpuBinding.forTask("verbose,map_gpu:0*2,2", STEP, 1, List.of())).containsExactly(0);
    assertThat(GpuBinding.forTask("map_gpu:0*2,2", STEP, 2, List.of())).containsExactly(2);
    assertThat(GpuBinding.forTask("mask_gpu:0x3,0xC", STEP, 0, List.of())).containsExactly(0, 1);
    assertThat(GpuBinding.forTask("mask_gpu:0x3,0xC", STEP, 1, List.of())).containsExactly(2, 3);
  }

  @Test
  void singleAndPerTaskShareOutTheStepsGpus() {
    assertThat(GpuBinding.forTask("single:2", List.of(1, 3), 0, List.of())).containsExactly(1);
    assertThat(GpuBinding.forTask("single:2", List.of(1, 3), 1, List.of())).containsExactly(1);
    assertThat(GpuBinding.forTask("single:2", List.of(1, 3), 2, List.of())).containsExactly(3);
    assertThat(GpuBinding.forTask("per_task:2", STEP, 1, List.of())).containsExactly(2, 3);
    assertThat(GpuBinding.of("", "gres:gpu:1")).isEqualTo("per_task:1");
    assertThat(GpuBinding.forTask(GpuBinding.of("", "gres:gpu:1"), List.of(2, 3), 1, List.of())).containsExactly(3);
  }

  @Test
  void noneClosestAndUnreadableValuesLeaveEveryGpu() {
    assertThat(GpuBinding.forTask("none", STEP, 2, List.of())).isEqualTo(STEP);
    assertThat(GpuBinding.forTask("closest", STEP, 2, List.of())).as("no GPU near the task").isEqualTo(STEP);
    assertThat(GpuBinding.forTask("single:x", STEP, 2, List.of())).isEqualTo(STEP);
    assertThat(GpuBinding.forTask("map_gpu:", STEP, 2, List.of())).isEqualTo(STEP);
    assertThat(GpuBinding.of("", "")).isEmpty();
    assertThat(GresEnvironment.visible(List.of(3), "no-such-node"))
        .containsEntry("CUDA_VISIBLE_DEVICES", "3").containsEntry("ROCR_VISIBLE_DEVICES", "3");
  }

  @Test
  void aBoundTasksStepGpusNameItsOwnAsOnTheReference() {
    // sbatch -n2 --gres=gpu:4, then srun -n2 --gpu-bind=map_gpu:3,2: task 0 sees "3:3" on 22.05
    assertThat(GresEnvironment.task(List.of(3), "no-such-node")).containsEntry("CUDA_VISIBLE_DEVICES", "3")
        .containsEntry("SLURM_STEP_GPUS", "3").doesNotContainKey("SLURM_GPUS_ON_NODE");
    assertThat(GresEnvironment.task(List.of(0, 1), "no-such-node")).containsEntry("SLURM_STEP_GPUS", "0,1");
  }

  @Test
  void closestGivesATaskTheStepsGpusNearItsCpus() {
    // a node whose GPUs 0-1 are near CPUs 0-3 and 2-3 near 4-7
    GresInventory node = new GresInventory(List.of(
        GresSlot.newBuilder().setName("gpu").setCount(2).setCores("0-3").build(),
        GresSlot.newBuilder().setName("gpu").setCount(2).setCores("4-7").build()));
    assertThat(node.gpusNear(CpuList.parse("1"))).containsExactly(0, 1);
    assertThat(node.gpusNear(CpuList.parse("3-4"))).containsExactly(0, 1, 2, 3);
    assertThat(GpuBinding.forTask("closest", STEP, 0, node.gpusNear(CpuList.parse("5")))).containsExactly(2, 3);
    assertThat(GpuBinding.forTask("closest", List.of(1, 2), 0, node.gpusNear(CpuList.parse("5"))))
        .as("of the step's GPUs").containsExactly(2);
  }
}

package org.corral.ctld.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepSpec;
import org.junit.jupiter.api.Test;

/** Step placements as the reference Slurm 22.05 makes them (recorded with srun -l inside salloc). */
class StepLayoutTest {
  private static JobInfo job(int... cpus) {
    JobInfo.Builder b = JobInfo.newBuilder().setJobId(7);
    for (int i = 0; i < cpus.length; i++) {
      b.addAllocation(NodeAllocation.newBuilder().setNode("n" + (i + 1)).setCpus(cpus[i]));
    }
    return b.build();
  }

  private static StepLayout.Placement placed(JobInfo job, StepSpec.Builder spec) {
    StepLayout.Outcome o = StepLayout.place(job, spec.build(), Map.of());
    assertThat(o).isInstanceOf(StepLayout.Placed.class);
    return ((StepLayout.Placed) o).placement();
  }

  @Test
  void tasksSpreadEvenlyWithinWhatEachNodeHolds() {
    // salloc -N2 -n4 gave CPUs 3,1: srun (inheriting -N2 -n4) runs 3 tasks on n1, 1 on n2
    assertThat(placed(job(3, 1), StepSpec.newBuilder().setMinNodes(2).setNumTasks(4)).tasks())
        .containsExactly(3, 1);
    assertThat(placed(job(3, 1), StepSpec.newBuilder().setMinNodes(2).setNumTasks(3)).tasks())
        .containsExactly(2, 1);
    assertThat(placed(job(8, 8), StepSpec.newBuilder().setNumTasks(9)).tasks()).containsExactly(5, 4);
    StepLayout.Placement p = placed(job(8, 8), StepSpec.newBuilder().setNumTasks(4).setCpusPerTask(3));
    assertThat(p.tasks()).containsExactly(2, 2);
    assertThat(p.cpus()).containsExactly(6, 6);
  }

  @Test
  void fewerNodesThanTheAllocationTakeTheFirstWithRoom() {
    StepLayout.Placement p = placed(job(3, 1), StepSpec.newBuilder().setMinNodes(1).setNumTasks(2));
    assertThat(p.nodes()).containsExactly("n1");
    assertThat(p.tasks()).containsExactly(2);
    assertThat(placed(job(8, 8), StepSpec.newBuilder().setNumTasks(1)).nodes()).containsExactly("n1");
    assertThat(placed(job(8, 8), StepSpec.newBuilder().setNodeList("n2").setNumTasks(1)).nodes())
        .containsExactly("n2");
  }

  @Test
  void overcommitSpreadsMoreTasksThanCpusEvenly() {
    // sbatch -N2 -O -n5 (1 CPU on each node): srun runs tasks 3,2 (SLURM_STEP_TASKS_PER_NODE=3,2)
    StepLayout.Placement p = placed(job(1, 1), StepSpec.newBuilder().setNumTasks(5).setOvercommit(true));
    assertThat(p.tasks()).containsExactly(3, 2);
    assertThat(p.cpus()).containsExactly(1, 1);
    // -N1 -n10 -O on one CPU: all ten there
    assertThat(placed(job(1), StepSpec.newBuilder().setNumTasks(10).setOvercommit(true)).tasks()).containsExactly(10);
    assertThat(StepLayout.place(job(1), StepSpec.newBuilder().setNumTasks(10).build(), Map.of()))
        .isEqualTo(new StepLayout.Impossible(SlurmError.TOO_MANY_REQUESTED_CPUS));
  }

  @Test
  void withoutCountsOneTaskPerNodeOfTheJob() {
    StepLayout.Placement p = placed(job(2, 2, 2), StepSpec.newBuilder());
    assertThat(p.nodes()).containsExactly("n1", "n2", "n3");
    assertThat(p.tasks()).containsExactly(1, 1, 1);
    assertThat(placed(job(4, 4), StepSpec.newBuilder().setNtasksPerNode(3)).tasks()).containsExactly(3, 3);
  }

  @Test
  void morethanTheAllocationIsRefusedForGoodButBusyCpusOnlyWait() {
    assertThat(StepLayout.place(job(3, 1), StepSpec.newBuilder().setNumTasks(20).build(), Map.of()))
        .isEqualTo(new StepLayout.Impossible(SlurmError.TOO_MANY_REQUESTED_CPUS));
    assertThat(StepLayout.place(job(3, 1), StepSpec.newBuilder().setMinNodes(1).setNumTasks(4).build(),
        Map.of())).isEqualTo(new StepLayout.Impossible(SlurmError.TOO_MANY_REQUESTED_CPUS));
    assertThat(StepLayout.place(job(3, 1), StepSpec.newBuilder().setMinNodes(3).build(), Map.of()))
        .isEqualTo(new StepLayout.Impossible(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    Map<String, Integer> busy = Map.of("n1", 3, "n2", 1);
    assertThat(StepLayout.place(job(3, 1), StepSpec.newBuilder().setNumTasks(1).build(), busy))
        .isEqualTo(new StepLayout.Busy());
    assertThat(StepLayout.place(job(3, 1), StepSpec.newBuilder().setNumTasks(1).setOverlap(true).build(), busy))
        .isInstanceOf(StepLayout.Placed.class);
    StepLayout.Outcome partly = StepLayout.place(job(3, 1), StepSpec.newBuilder().setNumTasks(1).build(),
        Map.of("n1", 3));
    assertThat(((StepLayout.Placed) partly).placement().nodes()).isEqualTo(List.of("n2"));
  }
}

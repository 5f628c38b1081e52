package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TaskDistributionTest {

  @Test
  void readsTheFormsSrunTakes() {
    assertThat(TaskDistribution.parse("")).isEqualTo(TaskDistribution.BLOCK);
    assertThat(TaskDistribution.parse("cyclic:block").kind()).isEqualTo(TaskDistribution.Kind.CYCLIC);
    assertThat(TaskDistribution.parse("plane=2")).isEqualTo(new TaskDistribution(TaskDistribution.Kind.PLANE, 2));
    assertThat(TaskDistribution.parse("cyclic:cyclic,Pack").kind()).isEqualTo(TaskDistribution.Kind.CYCLIC);
    assertThat(TaskDistribution.parse("*:block").kind()).isEqualTo(TaskDistribution.Kind.BLOCK);
    assertThat(TaskDistribution.parse("arbitrary").kind()).isEqualTo(TaskDistribution.Kind.ARBITRARY);
    for (String bad : new String[] {"foo", "plane=0", "plane=x", "block:foo", "cyclic,sometimes", "a:b:c:d"}) {
      assertThatThrownBy(() -> TaskDistribution.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  /** SLURM_DISTRIBUTION as the reference's srun set it. */
  @Test
  void showsItAsSlurmDoes() {
    assertThat(TaskDistribution.shown("cyclic:cyclic,Pack")).isEqualTo("cyclic:cyclic,pack");
    assertThat(TaskDistribution.shown("*:block")).isEqualTo("block:block");
    assertThat(TaskDistribution.shown("plane=2")).isEqualTo("plane");
    assertThat(TaskDistribution.planeSizeOf("plane=2")).isEqualTo(2);
    assertThat(TaskDistribution.planeSizeOf("cyclic")).isZero();
    assertThat(TaskDistribution.planeSizeOf("plane=x")).isZero();
  }

  /** Inside an allocation of 5,1 CPUs (reference: 0:n1 1:n2 2-5:n1, and plane=2 0,1:n1 2:n2 3-6:n1). */
  @Test
  void laysTasksOutOverTheNodesInTurn() {
    assertThat(TaskDistribution.parse("cyclic").taskIds(List.of(5, 1), List.of(5, 1)))
        .isEqualTo(List.of(List.of(0, 2, 3, 4, 5), List.of(1)));
    assertThat(TaskDistribution.parse("plane=2").taskIds(List.of(6, 1), List.of(6, 1)))
        .isEqualTo(List.of(List.of(0, 1, 3, 4, 5, 6), List.of(2)));
    assertThat(TaskDistribution.parse("cyclic").taskIds(List.of(3, 3), List.of(3, 3)))
        .isEqualTo(List.of(List.of(0, 2, 4), List.of(1, 3, 5)));
    assertThat(TaskDistribution.BLOCK.taskIds(List.of(5, 1), List.of(5, 1)))
        .isEqualTo(List.of(List.of(0, 1, 2, 3, 4), List.of(5)));
  }
}

package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PerNodeCountsTest {
  @Test
  void compressesRunsAsSlurmDoes() {
    assertThat(PerNodeCounts.format(List.of(2, 2, 2))).isEqualTo("2(x3)");
    assertThat(PerNodeCounts.format(List.of(2, 1))).isEqualTo("2,1");
    assertThat(PerNodeCounts.format(List.of(4))).isEqualTo("4");
    assertThat(PerNodeCounts.format(List.of(8, 8, 4, 8))).isEqualTo("8(x2),4,8");
  }

  @Test
  void placesTasksAsSlurmDidForRealJobs() {
    // sbatch -N 2 -n 3: cpus 2,1 -> SLURM_TASKS_PER_NODE=2,1
    assertThat(PerNodeCounts.placeTasks(3, List.of(2, 1), 1)).containsExactly(2, 1);
    // sbatch -N 3 -c 2: cpus 2(x3) -> 1(x3)
    assertThat(PerNodeCounts.placeTasks(3, List.of(2, 2, 2), 2)).containsExactly(1, 1, 1);
    // sbatch -n 4 on one node -> 4
    assertThat(PerNodeCounts.placeTasks(4, List.of(4), 1)).containsExactly(4);
    // an exclusive node with one task
    assertThat(PerNodeCounts.placeTasks(1, List.of(8), 1)).containsExactly(1);
  }

  @Property(tries = 300)
  void everyTaskIsPlacedAndEveryNodeGetsOneWhenThereAreEnough(
      @ForAll @IntRange(min = 0, max = 200) int tasks,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 1, max = 64) Integer> cpus,
      @ForAll @IntRange(min = 1, max = 8) int cpusPerTask) {
    List<Integer> placed = PerNodeCounts.placeTasks(tasks, cpus, cpusPerTask);
    assertThat(placed).hasSize(cpus.size());
    assertThat(placed.stream().mapToInt(Integer::intValue).sum()).isEqualTo(tasks);
    if (tasks >= cpus.size()) {
      assertThat(placed).allMatch(n -> n >= 1);
    }
  }
}

package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PerNodeCountsTest {

  @Test
  void repeatedCountsAsSlurmWritesThem() {
    assertThat(PerNodeCounts.format(List.of(2, 1))).isEqualTo("2,1");
    assertThat(PerNodeCounts.format(List.of(8, 8, 8, 8))).isEqualTo("8(x4)");
    assertThat(PerNodeCounts.format(List.of(2, 2, 1))).isEqualTo("2(x2),1");
    assertThat(PerNodeCounts.format(List.of())).isEmpty();
  }

  @Test
  void placementAsObservedInSlurm() {
    // salloc -N2 -n3 -c2 on nodes given 2 and 4 CPUs: SLURM_TASKS_PER_NODE=1,2
    assertThat(PerNodeCounts.placeTasks(3, List.of(2, 4), 2)).containsExactly(1, 2);
    // salloc -N2 -n3 on 2 and 1 CPUs: 2,1
    assertThat(PerNodeCounts.placeTasks(3, List.of(2, 1), 1)).containsExactly(2, 1);
    // more tasks than CPUs: round robin
    assertThat(PerNodeCounts.placeTasks(3, List.of(1, 1), 1)).containsExactly(2, 1);
  }
}

package org.corral.cli.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CountsTest {

  @Test
  void repeatedCountsAsSlurmWritesThem() {
    assertThat(RepeatedCounts.format(List.of(2, 1))).isEqualTo("2,1");
    assertThat(RepeatedCounts.format(List.of(8, 8, 8, 8))).isEqualTo("8(x4)");
    assertThat(RepeatedCounts.format(List.of(2, 2, 1))).isEqualTo("2(x2),1");
    assertThat(RepeatedCounts.format(List.of())).isEmpty();
  }

  @Test
  void allocationTasksAsObservedInSlurm() {
    // salloc -N2 -n3 -c2 on nodes given 2 and 4 CPUs: "1,2"
    assertThat(AllocationTasks.perNode(List.of(2, 4), 3, 2, null)).containsExactly(1, 2);
    // salloc -N2 -n3 on 2 and 1 CPUs: "2,1"
    assertThat(AllocationTasks.perNode(List.of(2, 1), 3, null, null)).containsExactly(2, 1);
    // salloc -N2: one per node
    assertThat(AllocationTasks.perNode(List.of(1, 1), null, null, null)).containsExactly(1, 1);
    assertThat(AllocationTasks.perNode(List.of(8, 8), null, null, 4)).containsExactly(4, 4);
    assertThat(AllocationTasks.perNode(List.of(1, 1), 3, null, null)).containsExactly(2, 1);
  }
}

package org.corral.slurmd.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessMappingTest {

  @Test
  void blockLayoutsAsTheReferenceGivesThem() {
    // srun --mpi=pmi2 -N2 -n3 on Slurm 22.05
    assertThat(ProcessMapping.of(List.of(List.of(0, 1), List.of(2)))).isEqualTo("(vector,(0,1,2),(1,1,1))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 1), List.of(2, 3)))).isEqualTo("(vector,(0,2,2))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 1, 2, 3)))).isEqualTo("(vector,(0,1,4))");
  }

  @Test
  void aCyclicLayoutIsGivenOnceForMpichToRepeat() {
    assertThat(ProcessMapping.of(List.of(List.of(0, 1, 4), List.of(2, 3)))).isEqualTo("(vector,(0,2,2))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 1, 2), List.of(3)))).isEqualTo("(vector,(0,1,3),(1,1,1))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 2), List.of(1, 3)))).isEqualTo("(vector,(0,2,1))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 2, 4), List.of(1, 3)))).isEqualTo("(vector,(0,2,1))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 3), List.of(1), List.of(2)))).isEqualTo("(vector,(0,3,1))");
  }
}

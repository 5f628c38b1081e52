package org.corral.slurmd.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpuBindingTest {
  @Test
  void coresGivesEachTaskItsOwnCpusOfTheJob() {
    assertThat(CpuBinding.perTask("cores", List.of(4, 5, 6, 7), 2, 2))
        .containsExactly(Optional.of("4,5"), Optional.of("6,7"));
    assertThat(CpuBinding.perTask("cores", List.of(2, 3), 3, 1))
        .containsExactly(Optional.of("2"), Optional.of("3"), Optional.of("2"));
  }

  @Test
  void noneAndTheDefaultDoNotBind() {
    assertThat(CpuBinding.perTask("", List.of(0, 1), 2, 1)).containsExactly(Optional.empty(), Optional.empty());
    assertThat(CpuBinding.perTask("none", List.of(0, 1), 1, 1)).containsExactly(Optional.empty());
    assertThatThrownBy(() -> CpuBinding.perTask("sockets", List.of(0), 1, 1)).hasMessageContaining("not supported");
  }

  @Test
  void parsesCpuLists() {
    assertThat(CpuBinding.parseList("0-2,5,7-8\n")).containsExactly(0, 1, 2, 5, 7, 8);
    assertThat(CpuBinding.daemonCpus()).isNotEmpty();
  }
}

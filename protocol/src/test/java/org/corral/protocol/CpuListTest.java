package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

class CpuListTest {
  @Test
  void formatsRunsAsRanges() {
    BitSet cpus = new BitSet();
    cpus.set(0, 4);
    cpus.set(8);
    cpus.set(10, 12);
    assertThat(CpuList.format(cpus)).isEqualTo("0-3,8,10-11");
    assertThat(CpuList.format(new BitSet())).isEmpty();
  }

  @Test
  void parsesWhatItFormats() {
    assertThat(CpuList.format(CpuList.parse("0-3,8,10-11\n"))).isEqualTo("0-3,8,10-11");
    assertThat(CpuList.parse(" ").isEmpty()).isTrue();
    assertThatThrownBy(() -> CpuList.parse("3-1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CpuList.parse("a")).isInstanceOf(IllegalArgumentException.class);
  }
}

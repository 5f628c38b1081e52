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

  @Test
  void aJobsCpusOnANodeAreItsAllocationsCpuIdsThereAndNoneOtherwise() {
    var allocation = java.util.List.of(
        org.corral.protocol.msg.NodeAllocation.newBuilder().setNode("n1").setCpuIds("2-3").build(),
        org.corral.protocol.msg.NodeAllocation.newBuilder().setNode("n2").setCpuIds("x").build(),
        org.corral.protocol.msg.NodeAllocation.newBuilder().setNode("n3").build());
    assertThat(CpuList.format(Gres.cpusOn(allocation, "n1"))).isEqualTo("2-3");
    assertThat(Gres.cpusOn(allocation, "n2").isEmpty()).as("unreadable").isTrue();
    assertThat(Gres.cpusOn(allocation, "n3").isEmpty()).as("chosen before the controller chose CPUs").isTrue();
    assertThat(Gres.cpusOn(allocation, "n4").isEmpty()).as("not the job's node").isTrue();
  }
}

package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import org.corral.protocol.CpuList;
import org.junit.jupiter.api.Test;

class CoreAssignerTest {
  @Test
  void givesTheLowestFreeCpusAndTakesThemBackWhenTheJobEnds() {
    CoreAssigner cores = new CoreAssigner(8, CpuList.parse("0-7"));
    assertThat(CpuList.format(cores.claim(1, 2))).isEqualTo("0-1");
    assertThat(CpuList.format(cores.claim(2, 3))).isEqualTo("2-4");
    assertThat(CpuList.format(cores.claim(1, 2))).isEqualTo("0-1");
    cores.release(1);
    assertThat(CpuList.format(cores.claim(3, 4))).isEqualTo("0-1,5-6");
  }

  @Test
  void nodeCpusWrapOntoTheHostsCpus() {
    CoreAssigner cores = new CoreAssigner(8, CpuList.parse("2-3"));
    BitSet three = cores.claim(1, 3);
    assertThat(CpuList.format(cores.hostCpus(three))).isEqualTo("2-3");
    assertThat(CpuList.format(cores.hostCpus(cores.claim(2, 1)))).isEqualTo("3");
  }

  @Test
  void cpusCloseToTheJobsGpusComeFirstWhileFree() {
    CoreAssigner cores = new CoreAssigner(8, CpuList.parse("0-7"));
    assertThat(CpuList.format(cores.claim(1, 2, CpuList.parse("4-7")))).isEqualTo("4-5");
    assertThat(CpuList.format(cores.claim(2, 3, CpuList.parse("4-6")))).as("6 left there, then the lowest")
        .isEqualTo("0-1,6");
  }

  @Test
  void restoredJobsKeepTheirCpus() {
    CoreAssigner cores = new CoreAssigner(4, CpuList.parse("0-3"));
    cores.restore(9, CpuList.parse("0"));
    assertThat(CpuList.format(cores.claim(10, 1))).isEqualTo("1");
  }
}

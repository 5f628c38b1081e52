package org.corral.slurmd.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.corral.common.config.CgroupConf;
import org.junit.jupiter.api.Test;

class MemoryLimitsTest {
  private static final long MB = 1 << 20;
  private static final long NODE = 8000 * MB;

  private static CgroupConf conf(String text) throws Exception {
    return CgroupConf.parse(text, Path.of("cgroup.conf"));
  }

  @Test
  void nothingConstrainedMeansNoLimits() throws Exception {
    assertThat(MemoryLimits.of(conf(""), 100 * MB, NODE)).isEqualTo(MemoryLimits.NONE);
  }

  @Test
  void ramIsAllowedPercentOfTheAllocation() throws Exception {
    assertThat(MemoryLimits.of(conf("ConstrainRAMSpace=yes\nAllowedRAMSpace=150\n"), 100 * MB, NODE))
        .isEqualTo(new MemoryLimits(150 * MB, 0));
  }

  @Test
  void minRamSpaceIsAFloorAndMaxRamPercentACap() throws Exception {
    CgroupConf c = conf("ConstrainRAMSpace=yes\nMinRAMSpace=64\nMaxRAMPercent=50\n");
    assertThat(MemoryLimits.of(c, 10 * MB, NODE).ramBytes()).isEqualTo(64 * MB);
    assertThat(MemoryLimits.of(c, 6000 * MB, NODE).ramBytes()).isEqualTo(4000 * MB);
  }

  @Test
  void noRequestMeansTheWholeNode() throws Exception {
    assertThat(MemoryLimits.of(conf("ConstrainRAMSpace=yes\n"), 0, NODE).ramBytes()).isEqualTo(NODE);
  }

  @Test
  void swapAddsAllowedSwapSpaceCappedByMaxSwapPercent() throws Exception {
    assertThat(MemoryLimits.of(conf("ConstrainRAMSpace=yes\nConstrainSwapSpace=yes\nAllowedSwapSpace=50\n"),
        100 * MB, NODE)).isEqualTo(new MemoryLimits(100 * MB, 150 * MB));
    assertThat(MemoryLimits.of(conf("ConstrainRAMSpace=yes\nConstrainSwapSpace=yes\nAllowedSwapSpace=100\n"
        + "MaxSwapPercent=1\n"), 100 * MB, NODE)).isEqualTo(new MemoryLimits(100 * MB, 100 * MB));
  }

  @Test
  void swapAloneLimitsRamAndSwapTogether() throws Exception {
    assertThat(MemoryLimits.of(conf("ConstrainSwapSpace=yes\nAllowedSwapSpace=20\n"), 100 * MB, NODE))
        .isEqualTo(new MemoryLimits(120 * MB, 120 * MB));
  }
}

package org.corral.slurmd.usage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GatherFrequencyTest {
  @Test
  void readsSlurmsForms() {
    assertThat(GatherFrequency.taskSeconds("")).isEqualTo(30);
    assertThat(GatherFrequency.taskSeconds("15")).isEqualTo(15);
    assertThat(GatherFrequency.taskSeconds("energy=0,task=5")).isEqualTo(5);
    assertThat(GatherFrequency.taskSeconds("energy=10")).isEqualTo(30);
    assertThat(GatherFrequency.taskSeconds("task=0")).isZero();
    assertThat(GatherFrequency.taskSeconds("task=x")).isEqualTo(30);
  }
}

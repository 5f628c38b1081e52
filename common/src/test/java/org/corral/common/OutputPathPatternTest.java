package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class OutputPathPatternTest {
  private static final OutputPathPattern.Fields JOB =
      new OutputPathPattern.Fields(165, "my job", "root", "vm");

  @Test
  void expandsLikeSlurmForABatchJob() {
    // Each expectation is what Slurm 22.05 made of the same pattern for job 165 (or 168).
    assertThat(OutputPathPattern.expand("p-%J-%s-%n-%t-%5j-%3a-%z-%2x-%2N-%u.txt", JOB))
        .isEqualTo("p-165-batch-0-0-00165-4294967294-%z-my job-vm-root.txt");
    assertThat(OutputPathPattern.expand("r-%10A-%.txt", new OutputPathPattern.Fields(168, "w", "u", "h")))
        .isEqualTo("r-0000000168-%.txt");
    assertThat(OutputPathPattern.expand("slurm-%j.out", JOB)).isEqualTo("slurm-165.out");
    assertThat(OutputPathPattern.expand("100%%-%x", JOB)).isEqualTo("100%-my job");
  }

  @Test
  void expandsLikeSlurmForAStepTask() {
    // What srun -N2 -n3 -o 'o-%3t-%2n-%3s-%N-%j-%u-%x-%%.txt' made of it for task 2 (node 1) of step 48.0.
    var task = new OutputPathPattern.Fields(48, "bash", "root", "vm", "0", 1, 2);
    assertThat(OutputPathPattern.expand("o-%3t-%2n-%3s-%N-%j-%u-%x-%%.txt", task))
        .isEqualTo("o-002-01-000-vm-48-root-bash-%.txt");
    assertThat(OutputPathPattern.expand("e-%t.%n.%s", task)).isEqualTo("e-2.1.0");
  }

  @Test
  void aBackslashTurnsExpansionOffAndIsRemoved() {
    assertThat(OutputPathPattern.expand("q\\%j-%%j.txt", JOB)).isEqualTo("q%j-%%j.txt");
    assertThat(OutputPathPattern.expand("\\\\q-%j.txt", JOB)).isEqualTo("\\q-%j.txt");
  }

  @Test
  void aTrailingPercentOrWidthStaysLiteral() {
    assertThat(OutputPathPattern.expand("out%", JOB)).isEqualTo("out%");
    assertThat(OutputPathPattern.expand("out%12", JOB)).isEqualTo("out%12");
  }

  @Test
  void aHugeWidthIsCapped() {
    assertThat(OutputPathPattern.expand("%99999999999j", JOB)).hasSize(999);
  }

  @Property(tries = 300)
  void textWithoutSpecialCharactersIsKept(@ForAll String text) {
    String plain = text.replace("%", "").replace("\\", "");
    assertThat(OutputPathPattern.expand(plain, JOB)).isEqualTo(plain);
  }
}

package org.corral.slurmd.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MultiProgTest {
  @Test
  void theManPageExampleGivesEachTaskItsProgram() {
    MultiProg conf = MultiProg.parse("""
        ###################################################################
        # srun multiple program configuration file
        ###################################################################
        4-6       hostname
        1,7       echo  task:%t
        0,2-3     echo  offset:%o
        """);
    assertThat(conf.argv(0)).containsExactly("echo", "offset:0");
    assertThat(conf.argv(1)).containsExactly("echo", "task:1");
    assertThat(conf.argv(2)).containsExactly("echo", "offset:1");
    assertThat(conf.argv(3)).containsExactly("echo", "offset:2");
    assertThat(conf.argv(5)).containsExactly("hostname");
    assertThat(conf.argv(7)).containsExactly("echo", "task:7");
  }

  @Test
  void quotingAndSubstitutionAsTheReferenceDoesIt() {
    // What srun -n5 -l --multi-prog printed on the reference Slurm 22.05 for the same line.
    MultiProg conf = MultiProg.parse(
        "0 /a.sh a\\ b \"c d\" e\"f g\"h 'x %t y' %x %%t z%t\\%t ab'c d'e\n"
            + "1-2,4 /a.sh %o\ttab\n"
            + "  3   /a.sh  lead\n");
    assertThat(conf.argv(0)).containsExactly("/a.sh", "a b", "\"c", "d\"", "e\"f", "g\"h", "x %t y", "", "t",
        "z0%t", "abc de");
    assertThat(conf.argv(1)).containsExactly("/a.sh", "0", "tab");
    assertThat(conf.argv(4)).containsExactly("/a.sh", "2", "tab");
    assertThat(conf.argv(3)).containsExactly("/a.sh", "lead");
  }

  @Test
  void aStarLineTakesEveryOtherTaskWithItsIdAsOffset() {
    MultiProg conf = MultiProg.parse("0 printf first\n* echo star %t %o\n");
    assertThat(conf.argv(0)).containsExactly("printf", "first");
    assertThat(conf.argv(2)).isEqualTo(List.of("echo", "star", "2", "2"));
  }

  @Test
  void aTaskWithoutALineAndBadLinesAreRefused() {
    assertThatThrownBy(() -> MultiProg.parse("0 true\n").argv(1))
        .hasMessage("No executable program specified for this task");
    assertThatThrownBy(() -> MultiProg.parse("3-1 true\n")).hasMessageContaining("invalid task ranks '3-1'");
    assertThatThrownBy(() -> MultiProg.parse("x true\n")).hasMessageContaining("invalid task ranks");
    assertThatThrownBy(() -> MultiProg.parse("0\n")).hasMessageContaining("names no program");
    assertThatThrownBy(() -> MultiProg.parse("0 echo 'open\n")).hasMessageContaining("unmatched single quote");
  }
}

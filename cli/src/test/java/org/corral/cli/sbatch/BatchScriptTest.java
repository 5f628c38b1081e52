package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BatchScriptTest {

  private static BatchScript script(String text) {
    return new BatchScript(text, "job.sh");
  }

  @Test
  void quotesGroupAndAreRemoved() throws SbatchFailure {
    assertThat(script("#!/bin/sh\n#SBATCH -J \"a b\"c --comment 'it\"s'\n").directiveArguments())
        .containsExactly("-J", "a bc", "--comment", "it\"s");
  }

  @Test
  void unquotedHashEndsTheLineAndBackslashIsLiteral() throws SbatchFailure {
    assertThat(script("#!/bin/sh\n#SBATCH --comment=x#y z\n#SBATCH -J a\\ b\n")
        .directiveArguments()).containsExactly("--comment=x", "-J", "a\\", "b");
  }

  @Test
  void quotedHashIsKept() throws SbatchFailure {
    assertThat(script("#!/bin/sh\n#SBATCH --comment=\"x#y\"\n").directiveArguments())
        .containsExactly("--comment=x#y");
  }

  @Test
  void tabsSeparateAndOtherCommentsAreSkipped() throws SbatchFailure {
    assertThat(script("#!/bin/sh\n\n# note\n#SBATCH\t-J\ttab\n#SBATCHX -p no\n  \n#SBATCH -p yes\n"
        + "hostname\n#SBATCH -A late\n").directiveArguments())
        .containsExactly("-J", "tab", "-p", "yes");
  }

  @Test
  void unmatchedQuoteNamesFileAndLine() {
    assertThatThrownBy(() -> script("#!/bin/sh\n#SBATCH -J 'open\n").directiveArguments())
        .isInstanceOf(SbatchFailure.class)
        .hasMessage("sbatch: fatal: job.sh: line 2: Unmatched `'` in [-J 'open]");
  }

  @Test
  void scriptMustStartWithAnInterpreterLine() {
    assertThatThrownBy(() -> script("").validate()).hasMessage("sbatch: error: Batch script is empty!");
    assertThatThrownBy(() -> script(" #!/bin/sh\n").validate())
        .hasMessageStartingWith("sbatch: error: This does not look like a batch script.");
  }
}

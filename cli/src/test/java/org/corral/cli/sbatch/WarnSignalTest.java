package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WarnSignalTest {
  @Test
  void signalAloneWarnsSixtySecondsBefore() throws Exception {
    assertThat(WarnSignal.parse("USR1")).isEqualTo(new WarnSignal(10, 60, false, false));
    assertThat(WarnSignal.parse("SIGUSR2@90")).isEqualTo(new WarnSignal(12, 90, false, false));
    assertThat(WarnSignal.parse("B:10@5")).isEqualTo(new WarnSignal(10, 5, true, false));
    assertThat(WarnSignal.parse("RB:TERM@0")).isEqualTo(new WarnSignal(15, 0, true, true));
  }

  @Test
  void malformedSpecificationsAreRefusedWithSlurmsMessage() {
    for (String bad : new String[] {"FOO", "USR1@abc", "X:USR1", "B:USR1@70000", ":USR1", "USR1@", ""}) {
      assertThatThrownBy(() -> WarnSignal.parse(bad)).as(bad)
          .hasMessage("sbatch: error: Invalid --signal specification");
    }
  }
}

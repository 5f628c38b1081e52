package org.corral.ctld.triggers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.TriggerInfo;
import org.junit.jupiter.api.Test;

/** A trigger's program runs as the user who set it, with its words and then the event's. */
class TriggerProgramTest {
  private static final TriggerInfo T = TriggerInfo.newBuilder().setUserId(1001).setGroupId(1002)
      .setProgram(" /usr/sbin/notify  --to admin ").build();

  @Test
  void anotherUsersProgramRunsThroughSetpriv() {
    assertThat(TriggerProgram.command(T, List.of("n[1-2]"), 0)).containsExactly("setpriv", "--reuid=1001",
        "--regid=1002", "--init-groups", "--", "/usr/sbin/notify", "--to", "admin", "n[1-2]");
  }

  @Test
  void theControllersOwnUsersProgramRunsDirectly() {
    assertThat(TriggerProgram.command(T, List.of("42"), 1001)).containsExactly("/usr/sbin/notify", "--to", "admin", "42");
  }
}

package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubmitLimitsTest {
  @Test
  void maxScriptSizeIsFourMegabytesUnlessSchedulerParametersSaySo() {
    assertThat(SubmitLimits.of("").maxScriptBytes()).isEqualTo(4 * 1024 * 1024);
    assertThat(SubmitLimits.of("bf_window=60, max_script_size=1000").maxScriptBytes()).isEqualTo(1000);
  }

  @Test
  void aMaxScriptSizeOutsideSlurmsRangeIsAnError() {
    assertThatThrownBy(() -> SubmitLimits.of("max_script_size=600000000"))
        .hasMessageContaining("max_script_size=600000000");
    assertThatThrownBy(() -> SubmitLimits.of("max_script_size=lots")).hasMessageContaining("lots");
  }

  @Test
  void aScriptIsRefusedOneByteOverTheLimit() {
    SubmitLimits l = SubmitLimits.of("max_script_size=10");
    assertThat(l.excess(10, List.of(), List.of())).isNull();
    assertThat(l.excess(11, List.of(), List.of())).contains("max_script_size");
  }

  @Test
  void environmentAndArgumentsAreBoundedInBytesAndEntries() {
    SubmitLimits l = SubmitLimits.DEFAULT;
    String big = "X=" + "y".repeat(SubmitLimits.MAX_ENV_BYTES);
    assertThat(l.excess(0, List.of(big), List.of())).startsWith("environment");
    assertThat(l.excess(0, Collections.nCopies(SubmitLimits.MAX_ENV_ENTRIES + 1, "A=1"), List.of()))
        .startsWith("environment");
    assertThat(l.excess(0, List.of(), Collections.nCopies(SubmitLimits.MAX_ARGV_ENTRIES + 1, "a")))
        .startsWith("arguments");
    assertThat(l.excess(0, List.of("PATH=/bin"), List.of("a", "b"))).isNull();
  }

  @Test
  void theRequestLimitHoldsALargestSubmission() {
    SubmitLimits l = SubmitLimits.DEFAULT;
    assertThat(l.requestBytes()).isGreaterThan(l.maxScriptBytes() + SubmitLimits.MAX_ENV_BYTES
        + SubmitLimits.MAX_ARGV_BYTES);
  }
}

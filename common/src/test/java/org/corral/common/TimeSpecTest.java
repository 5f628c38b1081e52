package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class TimeSpecTest {
  private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 23, 22, 58, 41, 0, ZoneOffset.UTC);

  private static String at(String spec) {
    return java.time.Instant.ofEpochSecond(TimeSpec.parse(spec, NOW)).toString();
  }

  @Test
  void readsTheFormsSbatchDocuments() {
    assertThat(at("now+1hour")).isEqualTo("2026-11-23T23:58:41Z");
    assertThat(at("now+60")).isEqualTo("2026-11-23T22:59:41Z");
    assertThat(at("now + 2 days")).isEqualTo("2026-11-25T22:58:41Z");
    assertThat(at("16:00")).isEqualTo("2026-11-24T16:00:00Z"); // past today: tomorrow
    assertThat(at("23:30")).isEqualTo("2026-11-23T23:30:00Z");
    assertThat(at("4:30pm")).isEqualTo("2026-11-24T16:30:00Z");
    assertThat(at("teatime")).isEqualTo("2026-11-24T16:00:00Z");
    assertThat(at("tomorrow")).isEqualTo("2026-11-24T00:00:00Z");
    assertThat(at("2010-01-20T12:34:00")).isEqualTo("2010-01-20T12:34:00Z");
    assertThat(at("2027-02-03")).isEqualTo("2027-02-03T00:00:00Z");
    assertThat(at("12/25")).isEqualTo("2026-12-25T00:00:00Z");
    assertThat(at("01/05")).isEqualTo("2027-01-05T00:00:00Z");
    assertThat(at("122526")).isEqualTo("2026-12-25T00:00:00Z");
  }

  /** Recorded from Slurm 22.05's sbatch --begin (StartTime of a held job). */
  @Test
  void readsATimeOfDayAndADayInEitherOrder() {
    assertThat(at("noon-tomorrow")).isEqualTo("2026-11-24T12:00:00Z");
    assertThat(at("noon tomorrow")).isEqualTo("2026-11-24T12:00:00Z");
    assertThat(at("tomorrow-noon")).isEqualTo("2026-11-24T12:00:00Z");
    assertThat(at("16:00 tomorrow")).isEqualTo("2026-11-24T16:00:00Z");
    assertThat(at("midnight-tomorrow")).isEqualTo("2026-11-24T00:00:00Z");
    assertThat(at("15:30-12/31")).isEqualTo("2026-12-31T15:30:00Z");
    assertThat(at("12/31-15:30")).isEqualTo("2026-12-31T15:30:00Z");
    assertThat(at("noon-")).isEqualTo("2026-11-24T12:00:00Z");
    assertThat(at("2027-01-01 10:00")).isEqualTo("2027-01-01T10:00:00Z");
    assertThat(at("10:00 AM")).isEqualTo("2026-11-24T10:00:00Z");
    assertThat(at("now+1week")).isEqualTo("2026-11-30T22:58:41Z");
  }

  @Test
  void refusesTheRest() {
    for (String bad : new String[] {"garbage", "now+5parsecs", "25:00", "2026-13-01", "",
        "now+1h", "now+1min", "10am", "2027-01-01T10", "tomorrowx", "noon-garbage"}) {
      assertThatThrownBy(() -> TimeSpec.parse(bad, NOW)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }
}

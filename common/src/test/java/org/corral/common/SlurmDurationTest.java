package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Expected values are what Slurm 22.05's sbatch -t accepted and squeue/scontrol then showed. */
class SlurmDurationTest {

  @ParameterizedTest
  @CsvSource({
      "1,1", "0:30,1", "59,59", "60,60", "61,61", "1:00:00,60", "23:59:59,1440", "1-0,1440",
      "1-1,1500", "2-3:04,3064", "10-00:00:01,14401", "100-0,144000", "1:90,3", "0:0:90,2",
      "90:00,90", "1-,1440", "1-24,2880", "0-0:0:1,1", "00001,1", "0,0"})
  void parsesSlurmTimeSyntax(String text, long minutes) {
    assertThat(SlurmDuration.parseMinutes(text)).isEqualTo(minutes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"UNLIMITED", "unlimited", "INFINITE", "Infinite", "-1"})
  void parsesNoLimit(String text) {
    assertThat(SlurmDuration.parseMinutes(text)).isEqualTo(SlurmDuration.INFINITE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1:2:3:4", "abc", "1-2-3", "1-2:3:4:5", "5x", "1.5", "+5", "-5", "", ":", "1:",
      "99999999999999999999", "4294967295", "9999999-0"})
  void rejectsWhatSlurmRejects(String text) {
    assertThatThrownBy(() -> SlurmDuration.parseMinutes(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid time limit specification: " + text);
  }

  @ParameterizedTest
  @CsvSource({
      "1,1:00,00:01:00", "59,59:00,00:59:00", "60,1:00:00,01:00:00", "61,1:01:00,01:01:00",
      "1440,1-00:00:00,1-00:00:00", "1500,1-01:00:00,1-01:00:00", "3064,2-03:04:00,2-03:04:00",
      "14401,10-00:01:00,10-00:01:00", "144000,100-00:00:00,100-00:00:00",
      "4294967295,UNLIMITED,UNLIMITED"})
  void formatsLikeSqueueAndScontrol(long minutes, String squeue, String scontrol) {
    assertThat(SlurmDuration.formatMinutes(minutes)).isEqualTo(squeue);
    assertThat(SlurmDuration.formatMinutesPadded(minutes)).isEqualTo(scontrol);
  }

  @ParameterizedTest
  @CsvSource({"0,0:00,00:00:00", "5,0:05,00:00:05", "754,12:34,00:12:34", "3723,1:02:03,01:02:03",
      "176523,2-01:02:03,2-01:02:03", "-3,0:00,00:00:00"})
  void formatsElapsedSeconds(long seconds, String squeue, String scontrol) {
    assertThat(SlurmDuration.formatSeconds(seconds)).isEqualTo(squeue);
    assertThat(SlurmDuration.formatSecondsPadded(seconds)).isEqualTo(scontrol);
  }

  @Property
  void formattedMinutesParseBack(@ForAll @LongRange(min = 0, max = 100_000_000) long minutes) {
    assertThat(SlurmDuration.parseMinutes(SlurmDuration.formatMinutes(minutes))).isEqualTo(minutes);
    assertThat(SlurmDuration.parseMinutes(SlurmDuration.formatMinutesPadded(minutes))).isEqualTo(minutes);
  }

  @Property
  void formattedSecondsParseBackRoundedUp(@ForAll @LongRange(min = 0, max = 10_000_000_000L) long seconds) {
    assertThat(SlurmDuration.parseMinutes(SlurmDuration.formatSeconds(seconds))).isEqualTo((seconds + 59) / 60);
  }
}

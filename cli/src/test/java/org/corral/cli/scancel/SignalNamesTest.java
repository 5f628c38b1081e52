package org.corral.cli.scancel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SignalNamesTest {

  @ParameterizedTest
  @CsvSource({"USR1,10", "SIGUSR1,10", "usr1,10", "SigKill,9", "HUP,1", "TERM,15", "CONT,18",
      "STOP,19", "XCPU,24", "10,10", "1,1", "64,64"})
  void knownSignals(String text, int number) {
    assertThat(SignalNames.parse(text)).hasValue(number);
  }

  @ParameterizedTest
  @ValueSource(strings = {"FOO", "0", "SEGV", "PIPE", "1x", "", "SIG", "99999", "65"})
  void unknownSignals(String text) {
    assertThat(SignalNames.parse(text)).isEmpty();
  }
}

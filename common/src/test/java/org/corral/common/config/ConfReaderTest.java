package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfReaderTest {

  /** The hand-written split keeps what the regex split did: LF and CRLF end lines, a lone CR does not. */
  @ParameterizedTest
  @ValueSource(strings = {"", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\n", "\n\n", "a\r", "\r\n", "x=1\r\r\ny=2",
      "a\\\n b\n\n# c\r\n"})
  void splitsLinesAsTheRegexDid(String text) {
    assertThat(org.corral.common.TextFiles.lines(text)).isEqualTo(List.of(text.split("\r?\n", -1)));
  }
}

package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Expected values are what Slurm 22.05 accepted for --mem and showed as MinMemoryNode/TRES. */
class MemorySizeTest {

  @ParameterizedTest
  @CsvSource({"1024,1024", "1G,1024", "1g,1024", "1GB,1024", "1m,1", "1025K,2", "1536K,2", "1KB,1",
      "1T,1048576", "0,0", "' 1G ',1024", "4000,4000"})
  void parsesSizes(String text, long mb) {
    assertThat(MemorySize.parseMb(text)).isEqualTo(mb);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1P", "1.5G", "-1", "abc", "", "0x10", "1e3", "1B", "G", "99999999999999999T"})
  void rejectsBadSizes(String text) {
    assertThatThrownBy(() -> MemorySize.parseMb(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid memory size: '" + text + "'");
  }

  @ParameterizedTest
  @CsvSource({"1,1M", "512,512M", "768,768M", "1023,1023M", "1024,1G", "1280,1280M", "1536,1.50G",
      "2048,2G", "2560,2.50G", "3000,3000M", "3072,3G", "3584,3.50G", "4000,4000M", "0,0",
      "1048576,1T", "2621440,2.50T", "1573376,1536.50G", "1073741824,1P"})
  void formatsLikeSlurm(long mb, String text) {
    assertThat(MemorySize.format(mb)).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"1.50G,1536", "2.50T,2621440", "1G,1024", "3000M,3000", "1536.50G,1573376", "0.5K,1"})
  void parsesFormattedSizes(String text, long mb) {
    assertThat(MemorySize.parseFormattedMb(text)).isEqualTo(mb);
  }

  @Property
  void formatParsesBack(@ForAll @LongRange(min = 0, max = 1L << 50) long mb) {
    assertThat(MemorySize.parseFormattedMb(MemorySize.format(mb))).isEqualTo(mb);
  }

  @Property
  void wholeUnitsParseBackWithParseMb(@ForAll @LongRange(min = 0, max = 1L << 30) long mb) {
    String text = MemorySize.format(mb);
    if (!text.contains(".") && !text.endsWith("P") && !text.endsWith("E")) {
      assertThat(MemorySize.parseMb(text)).isEqualTo(mb);
    }
  }
}

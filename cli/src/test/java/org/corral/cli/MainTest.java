package org.corral.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {

  @Test
  void versionAndHelpRequestsSkipTheSocketSetUp() {
    assertThat(Main.mayConnect(List.of("--version"))).isFalse();
    assertThat(Main.mayConnect(List.of("-V"))).isFalse();
    assertThat(Main.mayConnect(List.of("-l", "--help"))).isFalse();
    assertThat(Main.mayConnect(List.of("--usage"))).isFalse();
  }

  @Test
  void otherCommandsPrepareIt() {
    assertThat(Main.mayConnect(List.of())).isTrue();
    assertThat(Main.mayConnect(List.of("-H", "--wrap", "true"))).isTrue();
    assertThat(Main.mayConnect(List.of("-o", "%i %V"))).isTrue();
  }
}

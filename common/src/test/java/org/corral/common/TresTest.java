package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TresTest {

  @Test
  void parsesInOrderWithMemoryInMb() {
    Tres t = Tres.parse("cpu=4,mem=8G,node=1,billing=4,gres/gpu:a100=2");
    assertThat(t.counts().keySet()).containsExactly("cpu", "mem", "node", "billing", "gres/gpu:a100");
    assertThat(t.get("mem")).isEqualTo(8192);
    assertThat(t.get("gres/gpu:a100")).isEqualTo(2);
    assertThat(t.get("energy")).isZero();
    assertThat(t.format()).isEqualTo("cpu=4,mem=8G,node=1,billing=4,gres/gpu:a100=2");
  }

  @Test
  void formatsMemoryAsSlurm() {
    // Slurm 22.05 scontrol show job: TRES=cpu=1,mem=1.50G,node=1,billing=1 for --mem=1536.
    assertThat(Tres.parse("cpu=1,mem=1536,node=1,billing=1").format()).isEqualTo("cpu=1,mem=1.50G,node=1,billing=1");
    assertThat(Tres.parse("cpu=3,mem=2100M,node=2,billing=3").get("mem")).isEqualTo(2100);
    assertThat(Tres.parse("cpu=8,mem=4000M,billing=8").toString()).isEqualTo("cpu=8,mem=4000M,billing=8");
    assertThat(Tres.parse("mem=500M").format()).isEqualTo("mem=500M");
  }

  @Test
  void emptyAndWith() {
    assertThat(Tres.parse("").isEmpty()).isTrue();
    assertThat(Tres.empty().format()).isEmpty();
    Tres t = Tres.parse("cpu=1,node=1").with("cpu", 4).with("gres/gpu", 2);
    assertThat(t.format()).isEqualTo("cpu=4,node=1,gres/gpu=2");
    assertThat(t).isEqualTo(Tres.parse("cpu=4,node=1,gres/gpu=2")).isNotEqualTo(Tres.parse("node=1,cpu=4,gres/gpu=2"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"cpu", "cpu=", "=4", "cpu=x", "cpu=-1", "mem=1.5X", "cpu=1,cpu=2", "cpu=1,,node=1"})
  void rejectsBadText(String text) {
    assertThatThrownBy(() -> Tres.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid TRES specification: '" + text + "'");
  }

  @Property(tries = 300)
  void formatParsesBack(@ForAll("tres") Tres tres) {
    assertThat(Tres.parse(tres.format())).isEqualTo(tres);
  }

  @Provide
  Arbitrary<Tres> tres() {
    Arbitrary<String> names = Arbitraries.of("cpu", "mem", "node", "billing", "energy", "gres/gpu", "gres/gpu:a100",
        "license/matlab", "fs/disk");
    return Arbitraries.maps(names, Arbitraries.longs().between(0, 1L << 40)).ofMaxSize(6)
        .map(m -> Tres.of(new LinkedHashMap<String, Long>(m)));
  }

  @Test
  void ofKeepsMapOrder() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("node", 2L);
    m.put("cpu", 8L);
    assertThat(Tres.of(m).format()).isEqualTo("node=2,cpu=8");
  }
}

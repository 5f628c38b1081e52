package org.corral.slurmd.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PmiMessageTest {

  @Test
  void pmi1LinesKeepTheValuesSpaces() {
    PmiMessage m = PmiMessage.parsePmi1("cmd=put kvsname=1.0 key=P0-businesscard value=a b=c\n");
    assertThat(m.command()).isEqualTo("put");
    assertThat(m.attributes()).containsExactly(Map.entry("kvsname", "1.0"), Map.entry("key", "P0-businesscard"),
        Map.entry("value", "a b=c"));
    assertThat(PmiMessage.parsePmi1("mcmd=spawn").command()).isEqualTo("spawn");
  }

  @Test
  void pmi2MessagesUndoubleSemicolonsAndSayTheirLength() {
    PmiMessage m = PmiMessage.parsePmi2("cmd=kvs-put;key=k;value=x;;y;");
    assertThat(m.command()).isEqualTo("kvs-put");
    assertThat(m.attributes()).containsExactly(Map.entry("key", "k"), Map.entry("value", "x;y"));
    assertThat(new PmiMessage("kvs-get-response", Map.of("rc", "0")).toPmi2())
        .isEqualTo("26    cmd=kvs-get-response;rc=0;");
    assertThat(PmiMessage.parsePmi2("key=k;")).isNull();
    assertThat(PmiMessage.parsePmi2("cmd=x;junk")).isNull();
  }
}

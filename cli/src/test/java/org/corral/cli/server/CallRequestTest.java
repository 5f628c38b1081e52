package org.corral.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallRequestTest {

  private static byte[] wire(String... fields) {
    return (String.join("\0", fields) + "\0").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsWhatTheFrontEndSends() {
    CallRequest c = CallRequest.parse(wire("sbatch", "/home/u/w", "4242", "0022", "100", "2", "--wrap", "a=b c",
        "SLURM_CONF=/etc/x.conf", "EMPTY=", "A.B=1", "SLURM_CONF=/second"));
    assertThat(c.program()).isEqualTo("sbatch");
    assertThat(c.cwd()).isEqualTo(Path.of("/home/u/w"));
    assertThat(c.pid()).isEqualTo(4242);
    assertThat(c.umask()).isEqualTo("0022");
    assertThat(c.stdinTerminal()).isTrue();
    assertThat(c.stdoutTerminal()).isFalse();
    assertThat(c.args()).isEqualTo(List.of("--wrap", "a=b c"));
    assertThat(c.env()).containsEntry("SLURM_CONF", "/etc/x.conf").containsEntry("EMPTY", "")
        .containsEntry("A.B", "1").hasSize(3);
  }

  @Test
  void refusesMalformedCalls() {
    assertThatThrownBy(() -> CallRequest.parse(wire("squeue", "relative/dir", "1", "0022", "000", "0")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CallRequest.parse(wire("squeue", "/", "1", "0022", "000", "5", "a")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CallRequest.parse(wire("squeue", "/", "1", "0022", "000", "-1")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CallRequest.parse("squeue\0/\0no-terminator".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CallRequest.parse(wire("squeue", "/", "x", "0022", "000", "0")))
        .isInstanceOf(IllegalArgumentException.class); // NumberFormatException is one
  }
}

package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

class ShellQuotingTest {
  /** The real /bin/sh reads the `set --` line back into exactly the original words. */
  @Property(tries = 40)
  void theShellReadsBackTheExactWords(
      @ForAll @Size(max = 5) List<@StringLength(max = 30) @Chars({'\'', '"', '\\', '$', '`', '\n', ' ', '*', ';', '!'})
          @CharRange(from = 'a', to = 'z') @CharRange(from = 0x1, to = 0x1f) @CharRange(from = 0xe9, to = 0xe9) String> words)
      throws IOException, InterruptedException {
    String script = ShellQuoting.setPositionalParameters(words) + "for w in \"$@\"; do printf '%s\\0' \"$w\"; done\n";
    Process sh = new ProcessBuilder("/bin/sh", "-c", script).start();
    byte[] out = sh.getInputStream().readAllBytes();
    assertThat(sh.waitFor()).isZero();
    List<String> read = new ArrayList<>();
    String all = new String(out, StandardCharsets.UTF_8);
    int start = 0;
    for (int i = 0; i < all.length(); i++) {
      if (all.charAt(i) == '\0') {
        read.add(all.substring(start, i));
        start = i + 1;
      }
    }
    assertThat(read).isEqualTo(words);
  }
}

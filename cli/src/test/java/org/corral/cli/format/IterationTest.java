package org.corral.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.junit.jupiter.api.Test;

class IterationTest {
  @Test
  void listsAgainEverySecondsEachListingFollowedByABlankLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Cli cli = new Cli("squeue", new PrintStream(out, true, StandardCharsets.UTF_8), System.err, Map.of(),
        Clock.systemUTC(), () -> null);
    List<Long> pauses = new ArrayList<>();
    int[] n = {0};
    int rc = Iteration.repeat(3, cli, () -> {
      cli.out().println("listing " + ++n[0]);
      return 0;
    }, millis -> {
      pauses.add(millis);
      return pauses.size() < 3;
    });
    assertThat(rc).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("listing 1\n\nlisting 2\n\nlisting 3\n\n");
    assertThat(pauses).containsExactly(3000L, 3000L, 3000L);
  }

  @Test
  void takesPositiveSecondsOnly() {
    assertThat(Iteration.seconds("5")).isEqualTo(5);
    assertThat(Iteration.seconds("0")).isNull();
    assertThat(Iteration.seconds("-1")).isNull();
    assertThat(Iteration.seconds("x")).isNull();
  }
}

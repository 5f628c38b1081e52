package org.corral.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * --version, -V, --help and --usage of every command against what Slurm 22.05's commands
 * printed (golden/info, recorded with stdin from /dev/null): printed before anything else is
 * done, so no controller or slurmdbd is reachable here, and none may be needed.
 */
class InfoOptionsGoldenTest {

  @TestFactory
  Stream<DynamicTest> informationalOptions() throws IOException {
    return resource("cases.txt").lines().filter(l -> !l.isBlank()).map(l -> l.split(" "))
        .map(c -> DynamicTest.dynamicTest(c[1] + " " + c[2], () -> check(c[0], c[1], c[2])));
  }

  private static void check(String name, String tool, String option) throws IOException {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli(tool, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Clock.systemUTC(),
        () -> { throw new IllegalStateException(tool + " " + option + " called the controller"); },
        () -> { throw new IllegalStateException(tool + " " + option + " called slurmdbd"); });
    int rc = Main.command(tool, Caller.thisProcess()).run(List.of(option), cli);
    assertThat(out.toString(StandardCharsets.UTF_8)).as(name + " stdout").isEqualTo(resource(name + ".out"));
    assertThat(err.toString(StandardCharsets.UTF_8)).as(name + " stderr").isEqualTo(resource(name + ".err"));
    assertThat(rc).as(name + " exit status").isEqualTo(Integer.parseInt(resource(name + ".rc").trim()));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = InfoOptionsGoldenTest.class.getResourceAsStream("/golden/info/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

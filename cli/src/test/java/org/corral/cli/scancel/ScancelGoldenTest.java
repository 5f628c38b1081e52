package org.corral.cli.scancel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.corral.cli.sbatch.GoldenCases;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Each case under golden/scancel was run through Slurm 22.05's scancel; Corral's scancel must
 * print the same bytes and exit alike. The case's "response" is what the fake controller says:
 * "result ID CODE" lines, "empty" (no job matched), or "error CODE MESSAGE".
 */
class ScancelGoldenTest {

  @TestFactory
  Stream<DynamicTest> matchesSlurm() {
    List<Path> cases = GoldenCases.of("scancel");
    assertThat(cases).hasSizeGreaterThan(15);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> check(c)));
  }

  private static void check(Path dir) throws IOException {
    FakeController scancel = new FakeController();
    String response = GoldenCases.read(dir, "response");
    if (response != null) {
      scancel.response = parse(response);
    }
    int rc = scancel.run(GoldenCases.args(dir).toArray(String[]::new));
    GoldenCases.assertMatches(dir, scancel.out, scancel.err, rc);
    if (response == null) {
      assertThat(scancel.requests).as("a refused command asks nothing").isEmpty();
    }
  }

  private static Response parse(String text) {
    List<Integer> pairs = new ArrayList<>();
    for (String line : text.strip().split("\n")) {
      String[] f = line.split(" ", 3);
      switch (f[0]) {
        case "result" -> {
          pairs.add(Integer.parseInt(f[1]));
          pairs.add(Integer.parseInt(f[2]));
        }
        case "error" -> {
          return Response.newBuilder().setErrorCode(Integer.parseInt(f[1]))
              .setErrorMessage(f[2]).build();
        }
        case "empty" -> { }
        default -> throw new IllegalArgumentException("bad response line: " + line);
      }
    }
    return new FakeController().results(pairs.stream().mapToInt(Integer::intValue).toArray()).response;
  }
}

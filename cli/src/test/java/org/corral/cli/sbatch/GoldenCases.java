package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The recorded cases under a golden/COMMAND resource folder (see golden/README.md): one
 * directory each, with the arguments and the real command's stdout, stderr and exit status.
 */
public final class GoldenCases {

  private GoldenCases() {}

  /** The case directories of a command, sorted. */
  public static List<Path> of(String command) {
    try {
      Path root = Path.of(GoldenCases.class.getResource("/golden/" + command).toURI());
      try (Stream<Path> s = Files.list(root)) {
        return s.filter(Files::isDirectory).sorted().toList();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public static List<String> args(Path caseDir) throws IOException {
    return Files.readAllLines(caseDir.resolve("args"));
  }

  /** A case file's text, or null when the case has none. */
  public static String read(Path caseDir, String name) throws IOException {
    Path p = caseDir.resolve(name);
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : null;
  }

  /** Asserts a run printed exactly what the real command printed and exited alike. */
  public static void assertMatches(Path caseDir, String out, String err, int rc)
      throws IOException {
    assertThat(err).as("stderr").isEqualTo(read(caseDir, "stderr"));
    assertThat(out).as("stdout").isEqualTo(read(caseDir, "stdout"));
    assertThat(rc).as("exit status").isEqualTo(Integer.parseInt(read(caseDir, "rc").strip()));
  }
}

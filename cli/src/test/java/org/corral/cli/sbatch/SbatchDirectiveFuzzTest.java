package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * #SBATCH lines, real options with hostile values and garbage: sbatch submits a job or refuses
 * with its own error on stderr and a non-zero exit, never an escaping exception.
 */
class SbatchDirectiveFuzzTest {
  private static final List<String> OPTIONS = List.of("-J", "--job-name", "-N", "--nodes", "-n",
      "--ntasks", "-c", "--cpus-per-task", "-t", "--time", "--mem", "--mem-per-cpu", "-o", "-e",
      "-p", "-a", "--array", "--gres", "--export", "-d", "--dependency", "--nice", "--signal",
      "--begin", "--exclusive", "--wckey", "-C", "--constraint", "--open-mode", "--ntasks-per-node",
      "--distribution", "--hint", "--tmp", "--deadline", "--mail-type", "--requeue", "-x",
      "--nodelist", "--licenses", "--priority", "--time-min", "--gpus", "--cpus-per-gpu", "-w");
  private static Path dir;

  @BeforeContainer
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("sbatch-fuzz");
  }

  @AfterContainer
  static void removeDir() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  @Property(tries = 150)
  void directivesEndInAJobOrAnSbatchError(@ForAll("scripts") String script) throws IOException {
    Files.writeString(dir.resolve("job.sh"), script);
    FakeSubmitter sbatch = new FakeSubmitter(dir);
    int rc = sbatch.run("job.sh");
    if (rc == 0) {
      assertThat(sbatch.out).startsWith("Submitted batch job ");
    } else {
      assertThat(sbatch.err).as("rc %d", rc).contains("sbatch: ");
    }
  }

  @Provide
  Arbitrary<String> scripts() {
    Arbitrary<String> value = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(30),
        Arbitraries.strings().withChars("0123456789-:,[]%=KMGTkmgt+ \"'#").ofMaxLength(16),
        Arbitraries.longs().map(String::valueOf));
    Arbitrary<String> directive = Arbitraries.oneOf(
        Combinators.combine(Arbitraries.of(OPTIONS), value).as((o, v) -> "#SBATCH " + o + " " + v),
        Combinators.combine(Arbitraries.of(OPTIONS), value).as((o, v) -> "#SBATCH " + o + "=" + v),
        Arbitraries.strings().ofMaxLength(40).map(s -> "#SBATCH " + s));
    return directive.list().ofMaxSize(6)
        .map(lines -> "#!/bin/sh\n" + String.join("\n", lines) + "\ntrue\n");
  }
}

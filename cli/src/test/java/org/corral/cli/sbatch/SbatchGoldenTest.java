package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobReply;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each case under golden/sbatch was run through Slurm 22.05's sbatch by its record.sh; Corral's
 * sbatch must print the same bytes and exit with the same status. The fake controller answers
 * with the job id the real one gave, or with the case's recorded refusal.
 */
class SbatchGoldenTest {

  private static final Set<String> CASE_FILES =
      Set.of("args", "stdin", "stdout", "stderr", "rc", "response", "jobid");

  @TempDir Path temp;

  @TestFactory
  Stream<DynamicTest> matchesSlurm() throws IOException, URISyntaxException {
    Path root = Path.of(getClass().getResource("/golden/sbatch").toURI());
    List<Path> cases;
    try (Stream<Path> s = Files.list(root)) {
      cases = s.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(cases).hasSizeGreaterThan(20);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> check(c)));
  }

  private void check(Path dir) throws IOException {
    Path work = Files.createDirectory(temp.resolve(dir.getFileName()));
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (!CASE_FILES.contains(f.getFileName().toString())) {
          Files.copy(f, work.resolve(f.getFileName()));
        }
      }
    }
    FakeSubmitter sbatch = new FakeSubmitter(work);
    sbatch.env.put("PATH", "/usr/bin:/bin");
    sbatch.env.put("HOME", "/root");
    if (Files.exists(dir.resolve("stdin"))) {
      sbatch.stdin = read(dir.resolve("stdin"));
    }
    if (Files.exists(dir.resolve("jobid"))) {
      int id = Integer.parseInt(read(dir.resolve("jobid")).strip());
      sbatch.response = Response.newBuilder()
          .setSubmitJob(SubmitJobReply.newBuilder().setJobId(id)).build();
    }
    if (Files.exists(dir.resolve("response"))) {
      String[] r = read(dir.resolve("response")).strip().split(" ", 2);
      sbatch.response = Response.newBuilder()
          .setErrorCode(Integer.parseInt(r[0])).setErrorMessage(r[1]).build();
    }
    List<String> args = Files.readAllLines(dir.resolve("args"));

    int rc = sbatch.run(args.toArray(String[]::new));

    assertThat(sbatch.err).isEqualTo(read(dir.resolve("stderr")));
    assertThat(sbatch.out).isEqualTo(read(dir.resolve("stdout")));
    assertThat(rc).isEqualTo(Integer.parseInt(read(dir.resolve("rc")).strip()));
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}

package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
 * Each case under golden/sbatch was run through Slurm 22.05's sbatch by record-submit.sh; Corral's
 * sbatch must print the same bytes and exit with the same status. The fake controller answers
 * with the job id the real one gave, or with the case's recorded refusal.
 */
class SbatchGoldenTest {

  private static final Set<String> CASE_FILES =
      Set.of("args", "stdin", "stdout", "stderr", "rc", "response", "jobid");

  @TempDir Path temp;

  @TestFactory
  Stream<DynamicTest> matchesSlurm() {
    List<Path> cases = GoldenCases.of("sbatch");
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
    String stdin = GoldenCases.read(dir, "stdin");
    if (stdin != null) {
      sbatch.stdin = stdin;
    }
    String jobId = GoldenCases.read(dir, "jobid");
    if (jobId != null) {
      int id = Integer.parseInt(jobId.strip());
      sbatch.response = Response.newBuilder()
          .setSubmitJob(SubmitJobReply.newBuilder().setJobId(id)).build();
    }
    String refusal = GoldenCases.read(dir, "response");
    if (refusal != null) {
      String[] r = refusal.strip().split(" ", 2);
      sbatch.response = Response.newBuilder()
          .setErrorCode(Integer.parseInt(r[0])).setErrorMessage(r[1]).build();
    }
    int rc = sbatch.run(GoldenCases.args(dir).toArray(String[]::new));

    GoldenCases.assertMatches(dir, sbatch.out, sbatch.err, rc);
  }
}

package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSubmitterFactsTest {

  @TempDir Path proc;

  @Test
  void readsLimitsNiceAndUmaskFromProc() throws IOException {
    Files.writeString(proc.resolve("limits"), """
        Limit                     Soft Limit           Hard Limit           Units
        Max cpu time              unlimited            unlimited            seconds
        Max stack size            8388608              unlimited            bytes
        Max core file size        0                    unlimited            bytes
        Max open files            1024                 524288               files
        """);
    Files.writeString(proc.resolve("stat"),
        "77 (a (b) c) S 1 77 77 0 -1 4194304 99 0 0 0 0 0 0 0 30 10 1 0 181762 3133440\n");
    Files.writeString(proc.resolve("status"), "Name:\tx\nUmask:\t0027\nState:\tS\n");

    Map<String, String> vars = new LocalSubmitterFacts(proc).processVariables();

    assertThat(vars).containsEntry("SLURM_RLIMIT_CPU", "18446744073709551615")
        .containsEntry("SLURM_RLIMIT_STACK", "8388608")
        .containsEntry("SLURM_RLIMIT_CORE", "0")
        .containsEntry("SLURM_RLIMIT_NOFILE", "1024")
        .containsEntry("SLURM_PRIO_PROCESS", "10")
        .containsEntry("SLURM_UMASK", "0027")
        .doesNotContainKey("SLURM_RLIMIT_AS");
  }

  @Test
  void missingProcFilesGiveNoVariables() {
    assertThat(new LocalSubmitterFacts(proc.resolve("absent")).processVariables()).isEmpty();
  }

  @Test
  void currentDirectoryPrefersAnExistingPwd() {
    LocalSubmitterFacts facts = new LocalSubmitterFacts();
    assertThat(facts.currentDirectory(Map.of("PWD", proc.toString()))).isEqualTo(proc);
    assertThat(facts.currentDirectory(Map.of("PWD", "/no/such/dir")))
        .isEqualTo(Path.of(System.getProperty("user.dir")).toAbsolutePath());
    assertThat(facts.hostname()).isNotBlank();
  }
}

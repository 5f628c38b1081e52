package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExportedEnvironmentTest {

  private final Map<String, String> submitter = new LinkedHashMap<>(Map.of("A", "1", "B", "2"));
  private final Map<String, String> slurm = Map.of("SLURM_JOB_NAME", "j");

  @Test
  void defaultAndAllPassEverything() {
    assertThat(ExportedEnvironment.build(null, submitter, slurm))
        .containsExactlyInAnyOrder("A=1", "B=2", "SLURM_JOB_NAME=j");
    assertThat(ExportedEnvironment.build("all", submitter, slurm))
        .containsExactlyInAnyOrder("A=1", "B=2", "SLURM_JOB_NAME=j");
  }

  @Test
  void allWithAssignmentsAddsThemAndMarksTheExport() {
    assertThat(ExportedEnvironment.build("ALL,C=3,A=9", submitter, slurm))
        .containsExactlyInAnyOrder("A=9", "B=2", "C=3", "SLURM_JOB_NAME=j",
            "SLURM_EXPORT_ENV=ALL,C=3,A=9", "SLURM_GET_USER_ENV=1");
  }

  @Test
  void noneAndNilPassOnlySlurmVariables() {
    assertThat(ExportedEnvironment.build("NIL", submitter, slurm))
        .containsExactlyInAnyOrder("SLURM_JOB_NAME=j", "SLURM_EXPORT_ENV=NIL", "SLURM_GET_USER_ENV=1");
  }

  @Test
  void assignmentsOverrideSlurmVariables() {
    assertThat(ExportedEnvironment.build("SLURM_JOB_NAME=mine", submitter, slurm))
        .contains("SLURM_JOB_NAME=mine").doesNotContain("SLURM_JOB_NAME=j");
  }
}

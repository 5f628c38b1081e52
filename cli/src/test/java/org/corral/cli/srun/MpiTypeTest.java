package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.corral.cli.submit.CommandFailure;
import org.junit.jupiter.api.Test;

/** --mpi as Slurm 22.05 answers it (recorded from the reference). */
class MpiTypeTest {

  @Test
  void servedTypesAndSlurmsOldNameForNone() throws Exception {
    assertThat(MpiType.parse("pmi2")).isEqualTo("pmi2");
    assertThat(MpiType.parse("none")).isEqualTo("none");
    assertThat(MpiType.parse("openmpi")).isEqualTo("none");
    assertThat(MpiType.parse("list")).isEqualTo("list");
    assertThat(MpiType.fromConfig("mpi/pmi2")).isEqualTo("pmi2");
    assertThat(MpiType.fromConfig(null)).isEqualTo("none");
  }

  @Test
  void anUnknownTypeGetsSlurmsFiveLinesAndExitOne() {
    assertThatThrownBy(() -> MpiType.parse("PMI2")).isInstanceOfSatisfying(CommandFailure.class, f -> {
      assertThat(f.exitStatus()).isEqualTo(1);
      assertThat(f.lines()).containsExactly(
          "srun: error: Couldn't find the specified plugin name for mpi/PMI2 looking at all files",
          "srun: error: cannot find mpi plugin for mpi/PMI2",
          "srun: error: MPI: Cannot create context for mpi/PMI2",
          "srun: error: MPI: Unable to load any plugin",
          "srun: error: Invalid MPI type 'PMI2', --mpi=list for acceptable types");
    });
  }

  @Test
  void listedTypesCorralDoesNotServeAreRefusedNotRunAsSingletons() {
    for (String type : new String[] {"pmix", "pmix_v4", "cray_shasta"}) {
      assertThatThrownBy(() -> MpiType.parse(type)).isInstanceOfSatisfying(CommandFailure.class, f -> {
        assertThat(f.exitStatus()).isEqualTo(1);
        assertThat(f.lines()).last().isEqualTo("srun: error: Invalid MPI type '" + type
            + "', --mpi=list for acceptable types");
      });
    }
  }

  @Test
  void theListingIsTheReferencesByteForByte() {
    assertThat(String.join("\n", MpiType.LISTING) + "\n").isEqualTo(
        "MPI plugin types are...\n\tpmix\n\tnone\n\tcray_shasta\n\tpmi2\n"
            + "specific pmix plugin versions available: pmix_v4\n");
  }
}

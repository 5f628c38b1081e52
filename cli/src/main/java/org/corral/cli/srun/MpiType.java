package org.corral.cli.srun;

import java.util.List;
import org.corral.cli.submit.CommandFailure;

/**
 * srun's --mpi (also SLURM_MPI_TYPE, else slurm.conf's MpiDefault): the MPI plugin types of
 * Slurm 22.05 and its words for them, recorded from the reference. Types are case-sensitive;
 * "openmpi" is Slurm's old name for none. Corral serves none and pmi2; pmix and cray_shasta are
 * listed as Slurm lists them but refused, never run as singletons (docs/compatibility.md).
 */
final class MpiType {
  static final String NONE = "none";
  static final String PMI2 = "pmi2";
  /** --mpi=list: srun prints the types and exits. */
  static final String LIST = "list";

  /** What `srun --mpi=list` prints on stdout (the plugin directory's order on the reference). */
  static final List<String> LISTING = List.of(
      "MPI plugin types are...",
      "\tpmix",
      "\tnone",
      "\tcray_shasta",
      "\tpmi2",
      "specific pmix plugin versions available: pmix_v4");

  private MpiType() {
  }

  /** The type srun runs with ("none", "pmi2" or "list"), or Slurm's refusal. */
  static String parse(String value) throws CommandFailure {
    String v = value == null ? "" : value.strip();
    return switch (v) {
      case NONE, "openmpi" -> NONE;
      case PMI2, LIST -> v;
      case "pmix", "pmix_v4" -> throw refused(v, List.of("srun: error: mpi/" + v
          + ": Corral has no PMIx server; use --mpi=pmi2 (MPICH, Intel MPI, MVAPICH) or mpirun"));
      case "cray_shasta" -> throw refused(v, List.of("srun: error: mpi/cray_shasta is not supported by Corral"));
      default -> throw refused(v, List.of(
          "srun: error: Couldn't find the specified plugin name for mpi/" + v + " looking at all files",
          "srun: error: cannot find mpi plugin for mpi/" + v));
    };
  }

  /** MpiDefault's value as slurm.conf may write it ("mpi/pmi2"). */
  static String fromConfig(String value) throws CommandFailure {
    String v = value == null || value.isBlank() ? NONE : value.strip();
    return parse(v.startsWith("mpi/") ? v.substring("mpi/".length()) : v);
  }

  private static CommandFailure refused(String type, List<String> why) {
    List<String> lines = new java.util.ArrayList<>(why);
    lines.add("srun: error: MPI: Cannot create context for mpi/" + type);
    lines.add("srun: error: MPI: Unable to load any plugin");
    lines.add("srun: error: Invalid MPI type '" + type + "', --mpi=list for acceptable types");
    return new CommandFailure(1, lines);
  }
}

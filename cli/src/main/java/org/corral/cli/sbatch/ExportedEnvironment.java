package org.corral.cli.sbatch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment a batch job is given, from sbatch's environment and --export (sbatch(1)):
 * ALL (the default) passes everything; NONE or NIL passes nothing; otherwise a comma-separated
 * list of variable names to pass and NAME=value pairs to set, which may include ALL. When the
 * whole environment is not passed, slurmd is asked to load the user's login environment
 * (SLURM_GET_USER_ENV) and the job learns the option through SLURM_EXPORT_ENV, as with Slurm.
 */
public final class ExportedEnvironment {

  private ExportedEnvironment() {}

  /**
   * Builds the job's variables.
   *
   * @param export --export as given, or null when absent
   * @param submitter sbatch's own environment
   * @param slurmVariables the SLURM_* variables sbatch always adds (job name, submit dir, ...)
   */
  static List<String> build(String export, Map<String, String> submitter,
      Map<String, String> slurmVariables) {
    return build(export, submitter, slurmVariables, true);
  }

  /**
   * The environment of a job step (srun): as for a batch job, but srun neither asks for the
   * login environment nor records --export in SLURM_EXPORT_ENV (Slurm 22.05's srun does not).
   */
  public static List<String> forStep(String export, Map<String, String> submitter,
      Map<String, String> slurmVariables) {
    return build(export, submitter, slurmVariables, false);
  }

  private static List<String> build(String export, Map<String, String> submitter,
      Map<String, String> slurmVariables, boolean batch) {
    Map<String, String> env = new LinkedHashMap<>();
    Map<String, String> assigned = new LinkedHashMap<>();
    boolean everything = export == null || export.equalsIgnoreCase("ALL");
    if (everything) {
      env.putAll(submitter);
    } else {
      for (String item : export.split(",")) {
        int eq = item.indexOf('=');
        if (item.equalsIgnoreCase("ALL")) {
          env.putAll(submitter);
        } else if (item.equalsIgnoreCase("NONE") || item.equalsIgnoreCase("NIL")) {
          // Passes nothing; only the SLURM_* variables below.
        } else if (eq > 0) {
          assigned.put(item.substring(0, eq), item.substring(eq + 1));
        } else if (!item.isEmpty() && submitter.containsKey(item)) {
          env.put(item, submitter.get(item));
        }
      }
    }
    env.putAll(slurmVariables);
    env.putAll(assigned); // explicit NAME=value wins, as it comes last in Slurm's list
    if (!everything && batch) {
      env.put("SLURM_EXPORT_ENV", export);
      env.put("SLURM_GET_USER_ENV", "1");
    }
    return env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }
}

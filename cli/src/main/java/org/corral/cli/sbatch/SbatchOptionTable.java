package org.corral.cli.sbatch;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.submit.AllocationOptionTable;
import org.corral.cli.submit.AllocationOptionTable.Program;

/**
 * sbatch's option table as Slurm 22.05 declares it. Every long option is listed, in Slurm's
 * order, so that abbreviations resolve and GNU's ambiguity messages list the same candidates;
 * the key of an option with a short form is its letter.
 */
final class SbatchOptionTable {

  /** "+": the first operand is the script, everything after it belongs to the script. */
  static final String SHORT_OPTIONS = "+A:a:B:b:c:C:d:D:e:F:G:hHi:J:k::L:m:M:n:N:o:Op:q:QsS:t:vVw:Wx:";

  static final List<LongOpt> LONG_OPTIONS = AllocationOptionTable.longOptions(Program.SBATCH);

  /**
   * Input environment variables (sbatch(1)) for the options Corral acts on, mapped to option
   * keys. They override #SBATCH directives; the command line overrides them.
   */
  static final Map<String, String> ENVIRONMENT = Map.ofEntries(
      Map.entry("SBATCH_ACCOUNT", "A"),
      Map.entry("SBATCH_QOS", "q"),
      Map.entry("SBATCH_RESERVATION", "reservation"),
      Map.entry("SBATCH_WCKEY", "wckey"),
      Map.entry("SBATCH_ARRAY_INX", "a"),
      Map.entry("SBATCH_CONTAINER", "container"),
      Map.entry("SBATCH_ERROR", "e"),
      Map.entry("SBATCH_EXCLUSIVE", "exclusive"),
      Map.entry("SBATCH_EXPORT", "export"),
      Map.entry("SBATCH_INPUT", "i"),
      Map.entry("SBATCH_JOB_NAME", "J"),
      Map.entry("SBATCH_MEM_PER_CPU", "mem-per-cpu"),
      Map.entry("SBATCH_GRES", "gres"),
      Map.entry("SBATCH_GPUS", "G"),
      Map.entry("SBATCH_GPUS_PER_NODE", "gpus-per-node"),
      Map.entry("SBATCH_GPUS_PER_TASK", "gpus-per-task"),
      Map.entry("SBATCH_CPUS_PER_GPU", "cpus-per-gpu"),
      Map.entry("SBATCH_MEM_PER_GPU", "mem-per-gpu"),
      Map.entry("SBATCH_MEM_PER_NODE", "mem"),
      Map.entry("SBATCH_NO_REQUEUE", "no-requeue"),
      Map.entry("SBATCH_OPEN_MODE", "open-mode"),
      Map.entry("SBATCH_OUTPUT", "o"),
      Map.entry("SBATCH_PARTITION", "p"),
      Map.entry("SBATCH_REQUEUE", "requeue"),
      Map.entry("SBATCH_SIGNAL", "signal"),
      Map.entry("SBATCH_TIMELIMIT", "t"));

  /**
   * Options accepted and validated by nothing more than getopt, because on a Corral cluster they
   * change nothing about where, when or how the job runs (mail, profiling, binding hints, ...).
   */
  static final Set<String> NO_EFFECT = Set.of(
      "get-user-env", "ignore-pbs", "kill-on-invalid-dep", "propagate");

  private SbatchOptionTable() {}

  static Getopt getopt() {
    return new Getopt(SHORT_OPTIONS, LONG_OPTIONS);
  }

  /** The table with the options plugins add. */
  static Getopt getopt(org.corral.cli.submit.PluginOptions plugins) {
    return new Getopt(SHORT_OPTIONS, plugins.withOwn(LONG_OPTIONS));
  }

  /** The long name an option key is known by, for messages ("--array"). */
  static String displayName(String key) {
    return Getopt.displayName(LONG_OPTIONS, key);
  }

}

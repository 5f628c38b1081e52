package org.corral.cli.srun;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.submit.AllocationOptionTable;
import org.corral.cli.submit.AllocationOptionTable.Program;

/**
 * srun's option table as Slurm 22.05 declares it, so that abbreviations resolve as there; the
 * key of an option with a short form is its letter. "+": options stop at the first operand
 * (the program), so {@code srun -n2 hostname -s} passes -s to hostname.
 */
final class SrunOptionTable {

  static final String SHORT_OPTIONS = "+A:b:B:c:C:d:D:e:EG:hHi:I::J:k::K::lL:m:M:n:N:o:Op:q:Qr:sS:t:T:uvVw:W:x:XZ";

  static final List<LongOpt> LONG_OPTIONS = AllocationOptionTable.longOptions(Program.SRUN);

  /**
   * Input environment variables (srun(1)) for the options Corral acts on, mapped to option
   * keys, in the order they are applied: of two variables for one option the later wins
   * (SLURM_NTASKS over SLURM_NPROCS, SRUN_EXPORT_ENV over SLURM_EXPORT_ENV). The command line
   * overrides them all. SLURM_JOB_NAME is read only outside an allocation (inside one it
   * names the job, not the step).
   */
  static final List<Map.Entry<String, String>> ENVIRONMENT = List.of(
      Map.entry("SLURM_ACCOUNT", "A"),
      Map.entry("SLURM_RESERVATION", "reservation"),
      Map.entry("SLURM_WCKEY", "wckey"),
      Map.entry("SLURM_CONTAINER", "container"),
      Map.entry("SLURM_CPU_BIND", "cpu-bind"),
      Map.entry("SLURM_CPUS_PER_GPU", "cpus-per-gpu"),
      Map.entry("SRUN_CPUS_PER_TASK", "c"),
      Map.entry("SLURM_DISABLE_STATUS", "X"),
      Map.entry("SLURM_DISTRIBUTION", "m"),
      Map.entry("SLURM_EXACT", "exact"),
      Map.entry("SLURM_EXCLUSIVE", "exclusive"),
      Map.entry("SLURM_EXPORT_ENV", "export"),
      Map.entry("SLURM_GPU_BIND", "gpu-bind"),
      Map.entry("SLURM_GPUS", "G"),
      Map.entry("SLURM_GPUS_PER_NODE", "gpus-per-node"),
      Map.entry("SLURM_GPUS_PER_TASK", "gpus-per-task"),
      Map.entry("SRUN_EXPORT_ENV", "export"),
      Map.entry("SLURM_KILL_BAD_EXIT", "K"),
      Map.entry("SLURM_LABELIO", "l"),
      Map.entry("SLURM_MEM_PER_CPU", "mem-per-cpu"),
      Map.entry("SLURM_MEM_PER_GPU", "mem-per-gpu"),
      Map.entry("SLURM_MEM_PER_NODE", "mem"),
      Map.entry("SLURM_MPI_TYPE", "mpi"),
      Map.entry("SLURM_NNODES", "N"),
      Map.entry("SLURM_JOB_NUM_NODES", "N"),
      Map.entry("SLURM_NPROCS", "n"),
      Map.entry("SLURM_NTASKS", "n"),
      Map.entry("SLURM_NTASKS_PER_NODE", "ntasks-per-node"),
      Map.entry("SLURM_OPEN_MODE", "open-mode"),
      Map.entry("SLURM_OVERCOMMIT", "O"),
      Map.entry("SLURM_OVERLAP", "overlap"),
      Map.entry("SLURM_PARTITION", "p"),
      Map.entry("SLURM_WORKING_DIR", "D"),
      Map.entry("SLURM_REMOTE_CWD", "D"),
      Map.entry("SLURM_STDERRMODE", "e"),
      Map.entry("SLURM_STDINMODE", "i"),
      Map.entry("SLURM_STDOUTMODE", "o"),
      Map.entry("SLURM_TIMELIMIT", "t"),
      Map.entry("SLURM_UNBUFFEREDIO", "u"),
      Map.entry("SLURM_WAIT", "W"));

  /**
   * Options accepted and validated by nothing more than getopt, because on a Corral cluster they
   * change nothing about where, when or how the step runs.
   */
  static final Set<String> NO_EFFECT = Set.of(
      "compress", "debugger-test", "propagate", "resv-ports", "send-libs", "slurmd-debug", "T", "E");

  private SrunOptionTable() {}

  static Getopt getopt() {
    return new Getopt(SHORT_OPTIONS, LONG_OPTIONS);
  }

  /** The table with the options plugins add. */
  static Getopt getopt(org.corral.cli.submit.PluginOptions plugins) {
    return new Getopt(SHORT_OPTIONS, plugins.withOwn(LONG_OPTIONS));
  }

  /** The long name an option key is known by, for messages ("--bcast"). */
  static String displayName(String key) {
    return Getopt.displayName(LONG_OPTIONS, key);
  }

}

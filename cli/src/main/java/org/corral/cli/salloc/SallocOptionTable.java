package org.corral.cli.salloc;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.submit.AllocationOptionTable;
import org.corral.cli.submit.AllocationOptionTable.Program;

/**
 * salloc's option table as Slurm 22.05 declares it; "+": options stop at the command, whose
 * own options are its business.
 */
final class SallocOptionTable {

  static final String SHORT_OPTIONS = "+A:B:b:c:C:d:D:F:G:hHI::J:k::K::L:m:M:n:N:Op:q:QsS:t:uvVw:Wx:";

  static final List<LongOpt> LONG_OPTIONS = AllocationOptionTable.longOptions(Program.SALLOC);

  /** Input environment variables (salloc(1)) for the options Corral acts on, in applying order. */
  static final List<Map.Entry<String, String>> ENVIRONMENT = List.of(
      Map.entry("SALLOC_ACCOUNT", "A"),
      Map.entry("SALLOC_RESERVATION", "reservation"),
      Map.entry("SALLOC_WCKEY", "wckey"),
      Map.entry("SALLOC_CONTAINER", "container"),
      Map.entry("SALLOC_EXCLUSIVE", "exclusive"),
      Map.entry("SALLOC_MEM_PER_CPU", "mem-per-cpu"),
      Map.entry("SALLOC_GRES", "gres"),
      Map.entry("SALLOC_GPUS", "G"),
      Map.entry("SALLOC_GPUS_PER_NODE", "gpus-per-node"),
      Map.entry("SALLOC_GPUS_PER_TASK", "gpus-per-task"),
      Map.entry("SALLOC_CPUS_PER_GPU", "cpus-per-gpu"),
      Map.entry("SALLOC_MEM_PER_GPU", "mem-per-gpu"),
      Map.entry("SALLOC_MEM_PER_NODE", "mem"),
      Map.entry("SALLOC_PARTITION", "p"),
      Map.entry("SALLOC_TIMELIMIT", "t"));

  /** Accepted, validated by getopt only: they change nothing on a Corral cluster. */
  static final Set<String> NO_EFFECT = Set.of(
      "bell", "get-user-env", "no-bell", "wait-all-nodes");

  private SallocOptionTable() {}

  static Getopt getopt() {
    return new Getopt(SHORT_OPTIONS, LONG_OPTIONS);
  }

  /** The table with the options plugins add. */
  static Getopt getopt(org.corral.cli.submit.PluginOptions plugins) {
    return new Getopt(SHORT_OPTIONS, plugins.withOwn(LONG_OPTIONS));
  }

  static String displayName(String key) {
    return Getopt.displayName(LONG_OPTIONS, key);
  }

}

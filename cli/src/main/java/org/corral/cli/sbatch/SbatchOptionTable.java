package org.corral.cli.sbatch;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;

/**
 * sbatch's option table as Slurm 22.05 declares it. Every long option is listed, in Slurm's
 * order, so that abbreviations resolve and GNU's ambiguity messages list the same candidates;
 * the key of an option with a short form is its letter.
 */
final class SbatchOptionTable {

  /** "+": the first operand is the script, everything after it belongs to the script. */
  static final String SHORT_OPTIONS = "+A:a:B:b:c:C:d:D:e:F:G:hHi:J:k::L:m:M:n:N:o:Op:q:QsS:t:vVw:Wx:";

  static final List<LongOpt> LONG_OPTIONS = List.of(
      opt("account", Arg.REQUIRED, "A"),
      opt("acctg-freq", Arg.REQUIRED, "acctg-freq"),
      opt("array", Arg.REQUIRED, "a"),
      opt("batch", Arg.REQUIRED, "batch"),
      opt("begin", Arg.REQUIRED, "b"),
      opt("bb", Arg.REQUIRED, "bb"),
      opt("bbf", Arg.REQUIRED, "bbf"),
      opt("cluster-constraint", Arg.REQUIRED, "cluster-constraint"),
      opt("chdir", Arg.REQUIRED, "D"),
      opt("cluster", Arg.REQUIRED, "M"),
      opt("clusters", Arg.REQUIRED, "M"),
      opt("comment", Arg.REQUIRED, "comment"),
      opt("container", Arg.REQUIRED, "container"),
      opt("context", Arg.REQUIRED, "context"),
      opt("contiguous", Arg.NONE, "contiguous"),
      opt("constraint", Arg.REQUIRED, "C"),
      opt("core-spec", Arg.REQUIRED, "S"),
      opt("cores-per-socket", Arg.REQUIRED, "cores-per-socket"),
      opt("cpu-freq", Arg.REQUIRED, "cpu-freq"),
      opt("cpus-per-gpu", Arg.REQUIRED, "cpus-per-gpu"),
      opt("cpus-per-task", Arg.REQUIRED, "c"),
      opt("deadline", Arg.REQUIRED, "deadline"),
      opt("delay-boot", Arg.REQUIRED, "delay-boot"),
      opt("dependency", Arg.REQUIRED, "d"),
      opt("distribution", Arg.REQUIRED, "m"),
      opt("error", Arg.REQUIRED, "e"),
      opt("exclude", Arg.REQUIRED, "x"),
      opt("exclusive", Arg.OPTIONAL, "exclusive"),
      opt("export", Arg.REQUIRED, "export"),
      opt("export-file", Arg.REQUIRED, "export-file"),
      opt("extra-node-info", Arg.REQUIRED, "B"),
      opt("get-user-env", Arg.OPTIONAL, "get-user-env"),
      opt("gid", Arg.REQUIRED, "gid"),
      opt("gpu-bind", Arg.REQUIRED, "gpu-bind"),
      opt("gpu-freq", Arg.REQUIRED, "gpu-freq"),
      opt("gpus", Arg.REQUIRED, "G"),
      opt("gpus-per-node", Arg.REQUIRED, "gpus-per-node"),
      opt("gpus-per-socket", Arg.REQUIRED, "gpus-per-socket"),
      opt("gpus-per-task", Arg.REQUIRED, "gpus-per-task"),
      opt("gres", Arg.REQUIRED, "gres"),
      opt("gres-flags", Arg.REQUIRED, "gres-flags"),
      opt("help", Arg.NONE, "h"),
      opt("hint", Arg.REQUIRED, "hint"),
      opt("hold", Arg.NONE, "H"),
      opt("ignore-pbs", Arg.NONE, "ignore-pbs"),
      opt("input", Arg.REQUIRED, "i"),
      opt("job-name", Arg.REQUIRED, "J"),
      opt("kill-on-invalid-dep", Arg.REQUIRED, "kill-on-invalid-dep"),
      opt("licenses", Arg.REQUIRED, "L"),
      opt("mail-type", Arg.REQUIRED, "mail-type"),
      opt("mail-user", Arg.REQUIRED, "mail-user"),
      opt("mcs-label", Arg.REQUIRED, "mcs-label"),
      opt("mem", Arg.REQUIRED, "mem"),
      opt("mem-bind", Arg.REQUIRED, "mem-bind"),
      opt("mem-per-cpu", Arg.REQUIRED, "mem-per-cpu"),
      opt("mem-per-gpu", Arg.REQUIRED, "mem-per-gpu"),
      opt("mincpus", Arg.REQUIRED, "mincpus"),
      opt("network", Arg.REQUIRED, "network"),
      opt("nice", Arg.OPTIONAL, "nice"),
      opt("no-kill", Arg.OPTIONAL, "k"),
      opt("no-requeue", Arg.NONE, "no-requeue"),
      opt("nodefile", Arg.REQUIRED, "F"),
      opt("nodelist", Arg.REQUIRED, "w"),
      opt("nodes", Arg.REQUIRED, "N"),
      opt("ntasks", Arg.REQUIRED, "n"),
      opt("ntasks-per-core", Arg.REQUIRED, "ntasks-per-core"),
      opt("ntasks-per-gpu", Arg.REQUIRED, "ntasks-per-gpu"),
      opt("ntasks-per-node", Arg.REQUIRED, "ntasks-per-node"),
      opt("ntasks-per-socket", Arg.REQUIRED, "ntasks-per-socket"),
      opt("ntasks-per-tres", Arg.REQUIRED, "ntasks-per-tres"),
      opt("open-mode", Arg.REQUIRED, "open-mode"),
      opt("output", Arg.REQUIRED, "o"),
      opt("overcommit", Arg.NONE, "O"),
      opt("oversubscribe", Arg.NONE, "s"),
      opt("parsable", Arg.NONE, "parsable"),
      opt("partition", Arg.REQUIRED, "p"),
      opt("power", Arg.REQUIRED, "power"),
      opt("prefer", Arg.REQUIRED, "prefer"),
      opt("priority", Arg.REQUIRED, "priority"),
      opt("profile", Arg.REQUIRED, "profile"),
      opt("propagate", Arg.OPTIONAL, "propagate"),
      opt("qos", Arg.REQUIRED, "q"),
      opt("quiet", Arg.NONE, "Q"),
      opt("reboot", Arg.NONE, "reboot"),
      opt("requeue", Arg.NONE, "requeue"),
      opt("reservation", Arg.REQUIRED, "reservation"),
      opt("signal", Arg.REQUIRED, "signal"),
      opt("sockets-per-node", Arg.REQUIRED, "sockets-per-node"),
      opt("spread-job", Arg.NONE, "spread-job"),
      opt("switches", Arg.REQUIRED, "switches"),
      opt("tasks-per-node", Arg.REQUIRED, "ntasks-per-node"),
      opt("test-only", Arg.NONE, "test-only"),
      opt("thread-spec", Arg.REQUIRED, "thread-spec"),
      opt("threads-per-core", Arg.REQUIRED, "threads-per-core"),
      opt("time", Arg.REQUIRED, "t"),
      opt("time-min", Arg.REQUIRED, "time-min"),
      opt("tmp", Arg.REQUIRED, "tmp"),
      opt("tres-per-task", Arg.REQUIRED, "tres-per-task"), // Slurm 23.11 and later
      opt("uid", Arg.REQUIRED, "uid"),
      opt("use-min-nodes", Arg.NONE, "use-min-nodes"),
      opt("usage", Arg.NONE, "usage"),
      opt("verbose", Arg.NONE, "v"),
      opt("version", Arg.NONE, "V"),
      opt("wait", Arg.NONE, "W"),
      opt("wait-all-nodes", Arg.REQUIRED, "wait-all-nodes"),
      opt("wckey", Arg.REQUIRED, "wckey"),
      opt("wrap", Arg.REQUIRED, "wrap")
  );

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
      "acctg-freq", "cpu-freq", "delay-boot", "get-user-env", "hint",
      "ignore-pbs", "k", "kill-on-invalid-dep", "m", "mail-type", "mail-user", "mcs-label",
      "mem-bind", "network", "O", "power", "priority", "profile", "propagate", "q", "reboot",
      "spread-job", "use-min-nodes", "v", "wait-all-nodes");

  private SbatchOptionTable() {}

  static Getopt getopt() {
    return new Getopt(SHORT_OPTIONS, LONG_OPTIONS);
  }

  /** The long name an option key is known by, for messages ("--array"). */
  static String displayName(String key) {
    return Getopt.displayName(LONG_OPTIONS, key);
  }

  private static LongOpt opt(String name, Arg arg, String key) {
    return new LongOpt(name, arg, key);
  }
}

package org.corral.cli.srun;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;

/**
 * srun's option table as Slurm 22.05 declares it, so that abbreviations resolve as there; the
 * key of an option with a short form is its letter. "+": options stop at the first operand
 * (the program), so {@code srun -n2 hostname -s} passes -s to hostname.
 */
final class SrunOptionTable {

  static final String SHORT_OPTIONS = "+A:b:B:c:C:d:D:e:EG:hHi:I::J:k::K::lL:m:M:n:N:o:Op:q:Qr:sS:t:T:uvVw:W:x:XZ";

  static final List<LongOpt> LONG_OPTIONS = List.of(
      opt("account", Arg.REQUIRED, "A"),
      opt("acctg-freq", Arg.REQUIRED, "acctg-freq"),
      opt("bb", Arg.REQUIRED, "bb"),
      opt("bbf", Arg.REQUIRED, "bbf"),
      opt("bcast", Arg.OPTIONAL, "bcast"),
      opt("bcast-exclude", Arg.REQUIRED, "bcast-exclude"),
      opt("begin", Arg.REQUIRED, "b"),
      opt("chdir", Arg.REQUIRED, "D"),
      opt("cluster-constraint", Arg.REQUIRED, "cluster-constraint"),
      opt("clusters", Arg.REQUIRED, "M"),
      opt("comment", Arg.REQUIRED, "comment"),
      opt("compress", Arg.OPTIONAL, "compress"),
      opt("constraint", Arg.REQUIRED, "C"),
      opt("container", Arg.REQUIRED, "container"),
      opt("contiguous", Arg.NONE, "contiguous"),
      opt("core-spec", Arg.REQUIRED, "S"),
      opt("cores-per-socket", Arg.REQUIRED, "cores-per-socket"),
      opt("cpu-bind", Arg.REQUIRED, "cpu-bind"),
      opt("cpu-freq", Arg.REQUIRED, "cpu-freq"),
      opt("cpus-per-gpu", Arg.REQUIRED, "cpus-per-gpu"),
      opt("cpus-per-task", Arg.REQUIRED, "c"),
      opt("deadline", Arg.REQUIRED, "deadline"),
      opt("debugger-test", Arg.NONE, "debugger-test"),
      opt("delay-boot", Arg.REQUIRED, "delay-boot"),
      opt("dependency", Arg.REQUIRED, "d"),
      opt("disable-status", Arg.NONE, "X"),
      opt("distribution", Arg.REQUIRED, "m"),
      opt("epilog", Arg.REQUIRED, "epilog"),
      opt("error", Arg.REQUIRED, "e"),
      opt("exact", Arg.NONE, "exact"),
      opt("exclude", Arg.REQUIRED, "x"),
      opt("exclusive", Arg.OPTIONAL, "exclusive"),
      opt("export", Arg.REQUIRED, "export"),
      opt("extra-node-info", Arg.REQUIRED, "B"),
      opt("gpu-bind", Arg.REQUIRED, "gpu-bind"),
      opt("gpu-freq", Arg.REQUIRED, "gpu-freq"),
      opt("gpus", Arg.REQUIRED, "G"),
      opt("gpus-per-node", Arg.REQUIRED, "gpus-per-node"),
      opt("gpus-per-socket", Arg.REQUIRED, "gpus-per-socket"),
      opt("gpus-per-task", Arg.REQUIRED, "gpus-per-task"),
      opt("gres", Arg.REQUIRED, "gres"),
      opt("gres-flags", Arg.REQUIRED, "gres-flags"),
      opt("help", Arg.NONE, "h"),
      opt("het-group", Arg.REQUIRED, "het-group"),
      opt("hint", Arg.REQUIRED, "hint"),
      opt("hold", Arg.NONE, "H"),
      opt("immediate", Arg.OPTIONAL, "I"),
      opt("input", Arg.REQUIRED, "i"),
      opt("jobid", Arg.REQUIRED, "jobid"),
      opt("job-name", Arg.REQUIRED, "J"),
      opt("kill-on-bad-exit", Arg.OPTIONAL, "K"),
      opt("label", Arg.NONE, "l"),
      opt("licenses", Arg.REQUIRED, "L"),
      opt("mail-type", Arg.REQUIRED, "mail-type"),
      opt("mail-user", Arg.REQUIRED, "mail-user"),
      opt("mcs-label", Arg.REQUIRED, "mcs-label"),
      opt("mem", Arg.REQUIRED, "mem"),
      opt("mem-bind", Arg.REQUIRED, "mem-bind"),
      opt("mem-per-cpu", Arg.REQUIRED, "mem-per-cpu"),
      opt("mem-per-gpu", Arg.REQUIRED, "mem-per-gpu"),
      opt("mincpus", Arg.REQUIRED, "mincpus"),
      opt("mpi", Arg.REQUIRED, "mpi"),
      opt("multi-prog", Arg.NONE, "multi-prog"),
      opt("network", Arg.REQUIRED, "network"),
      opt("nice", Arg.OPTIONAL, "nice"),
      opt("no-allocate", Arg.NONE, "Z"),
      opt("no-kill", Arg.OPTIONAL, "k"),
      opt("nodefile", Arg.REQUIRED, "nodefile"),
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
      opt("overlap", Arg.NONE, "overlap"),
      opt("oversubscribe", Arg.NONE, "s"),
      opt("partition", Arg.REQUIRED, "p"),
      opt("power", Arg.REQUIRED, "power"),
      opt("preserve-env", Arg.NONE, "E"),
      opt("prefer", Arg.REQUIRED, "prefer"),
      opt("priority", Arg.REQUIRED, "priority"),
      opt("profile", Arg.REQUIRED, "profile"),
      opt("prolog", Arg.REQUIRED, "prolog"),
      opt("propagate", Arg.OPTIONAL, "propagate"),
      opt("pty", Arg.NONE, "pty"),
      opt("qos", Arg.REQUIRED, "q"),
      opt("quiet", Arg.NONE, "Q"),
      opt("quit-on-interrupt", Arg.NONE, "quit-on-interrupt"),
      opt("reboot", Arg.NONE, "reboot"),
      opt("relative", Arg.REQUIRED, "r"),
      opt("reservation", Arg.REQUIRED, "reservation"),
      opt("resv-ports", Arg.OPTIONAL, "resv-ports"),
      opt("send-libs", Arg.OPTIONAL, "send-libs"),
      opt("signal", Arg.REQUIRED, "signal"),
      opt("slurmd-debug", Arg.REQUIRED, "slurmd-debug"),
      opt("sockets-per-node", Arg.REQUIRED, "sockets-per-node"),
      opt("spread-job", Arg.NONE, "spread-job"),
      opt("switches", Arg.REQUIRED, "switches"),
      opt("task-epilog", Arg.REQUIRED, "task-epilog"),
      opt("task-prolog", Arg.REQUIRED, "task-prolog"),
      opt("tasks-per-node", Arg.REQUIRED, "ntasks-per-node"),
      opt("test-only", Arg.NONE, "test-only"),
      opt("thread-spec", Arg.REQUIRED, "thread-spec"),
      opt("threads", Arg.REQUIRED, "T"),
      opt("threads-per-core", Arg.REQUIRED, "threads-per-core"),
      opt("time", Arg.REQUIRED, "t"),
      opt("time-min", Arg.REQUIRED, "time-min"),
      opt("tmp", Arg.REQUIRED, "tmp"),
      opt("tres-per-task", Arg.REQUIRED, "tres-per-task"), // Slurm 23.11 and later
      opt("unbuffered", Arg.NONE, "u"),
      opt("usage", Arg.NONE, "usage"),
      opt("use-min-nodes", Arg.NONE, "use-min-nodes"),
      opt("verbose", Arg.NONE, "v"),
      opt("version", Arg.NONE, "V"),
      opt("wait", Arg.REQUIRED, "W"),
      opt("wckey", Arg.REQUIRED, "wckey"));

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
      Map.entry("SLURM_CPU_BIND", "cpu-bind"),
      Map.entry("SRUN_CPUS_PER_TASK", "c"),
      Map.entry("SLURM_DISABLE_STATUS", "X"),
      Map.entry("SLURM_EXACT", "exact"),
      Map.entry("SLURM_EXCLUSIVE", "exclusive"),
      Map.entry("SLURM_EXPORT_ENV", "export"),
      Map.entry("SRUN_EXPORT_ENV", "export"),
      Map.entry("SLURM_KILL_BAD_EXIT", "K"),
      Map.entry("SLURM_LABELIO", "l"),
      Map.entry("SLURM_MEM_PER_CPU", "mem-per-cpu"),
      Map.entry("SLURM_MEM_PER_NODE", "mem"),
      Map.entry("SLURM_MPI_TYPE", "mpi"),
      Map.entry("SLURM_NNODES", "N"),
      Map.entry("SLURM_JOB_NUM_NODES", "N"),
      Map.entry("SLURM_NPROCS", "n"),
      Map.entry("SLURM_NTASKS", "n"),
      Map.entry("SLURM_NTASKS_PER_NODE", "ntasks-per-node"),
      Map.entry("SLURM_OPEN_MODE", "open-mode"),
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
      "acctg-freq", "compress", "cpu-freq", "debugger-test", "delay-boot",
      "hint", "k", "m", "mail-type", "mail-user", "mcs-label", "mem-bind", "network",
      "O", "power", "priority", "profile", "propagate", "q", "reboot", "resv-ports",
      "send-libs", "slurmd-debug", "spread-job", "T", "use-min-nodes", "A",
      "comment", "E");

  private SrunOptionTable() {}

  static Getopt getopt() {
    return new Getopt(SHORT_OPTIONS, LONG_OPTIONS);
  }

  /** The long name an option key is known by, for messages ("--bcast"). */
  static String displayName(String key) {
    return Getopt.displayName(LONG_OPTIONS, key);
  }

  private static LongOpt opt(String name, Arg arg, String key) {
    return new LongOpt(name, arg, key);
  }
}

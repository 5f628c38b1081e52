package org.corral.cli.salloc;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;

/**
 * salloc's option table as Slurm 22.05 declares it; "+": options stop at the command, whose
 * own options are its business.
 */
final class SallocOptionTable {

  static final String SHORT_OPTIONS = "+A:B:b:c:C:d:D:F:G:hHI::J:k::K::L:m:M:n:N:Op:q:QsS:t:uvVw:Wx:";

  static final List<LongOpt> LONG_OPTIONS = List.of(
      opt("account", Arg.REQUIRED, "A"),
      opt("acctg-freq", Arg.REQUIRED, "acctg-freq"),
      opt("bb", Arg.REQUIRED, "bb"),
      opt("bbf", Arg.REQUIRED, "bbf"),
      opt("begin", Arg.REQUIRED, "b"),
      opt("bell", Arg.NONE, "bell"),
      opt("chdir", Arg.REQUIRED, "D"),
      opt("cluster-constraint", Arg.REQUIRED, "cluster-constraint"),
      opt("clusters", Arg.REQUIRED, "M"),
      opt("comment", Arg.REQUIRED, "comment"),
      opt("constraint", Arg.REQUIRED, "C"),
      opt("container", Arg.REQUIRED, "container"),
      opt("contiguous", Arg.NONE, "contiguous"),
      opt("core-spec", Arg.REQUIRED, "S"),
      opt("cores-per-socket", Arg.REQUIRED, "cores-per-socket"),
      opt("cpu-freq", Arg.REQUIRED, "cpu-freq"),
      opt("cpus-per-gpu", Arg.REQUIRED, "cpus-per-gpu"),
      opt("cpus-per-task", Arg.REQUIRED, "c"),
      opt("deadline", Arg.REQUIRED, "deadline"),
      opt("delay-boot", Arg.REQUIRED, "delay-boot"),
      opt("dependency", Arg.REQUIRED, "d"),
      opt("distribution", Arg.REQUIRED, "m"),
      opt("exclude", Arg.REQUIRED, "x"),
      opt("exclusive", Arg.OPTIONAL, "exclusive"),
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
      opt("immediate", Arg.OPTIONAL, "I"),
      opt("job-name", Arg.REQUIRED, "J"),
      opt("kill-command", Arg.OPTIONAL, "K"),
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
      opt("no-bell", Arg.NONE, "no-bell"),
      opt("no-kill", Arg.OPTIONAL, "k"),
      opt("no-shell", Arg.NONE, "no-shell"),
      opt("nodefile", Arg.REQUIRED, "F"),
      opt("nodelist", Arg.REQUIRED, "w"),
      opt("nodes", Arg.REQUIRED, "N"),
      opt("ntasks", Arg.REQUIRED, "n"),
      opt("ntasks-per-core", Arg.REQUIRED, "ntasks-per-core"),
      opt("ntasks-per-gpu", Arg.REQUIRED, "ntasks-per-gpu"),
      opt("ntasks-per-node", Arg.REQUIRED, "ntasks-per-node"),
      opt("ntasks-per-socket", Arg.REQUIRED, "ntasks-per-socket"),
      opt("overcommit", Arg.NONE, "O"),
      opt("oversubscribe", Arg.NONE, "s"),
      opt("partition", Arg.REQUIRED, "p"),
      opt("power", Arg.REQUIRED, "power"),
      opt("prefer", Arg.REQUIRED, "prefer"),
      opt("priority", Arg.REQUIRED, "priority"),
      opt("profile", Arg.REQUIRED, "profile"),
      opt("qos", Arg.REQUIRED, "q"),
      opt("quiet", Arg.NONE, "Q"),
      opt("reboot", Arg.NONE, "reboot"),
      opt("reservation", Arg.REQUIRED, "reservation"),
      opt("signal", Arg.REQUIRED, "signal"),
      opt("sockets-per-node", Arg.REQUIRED, "sockets-per-node"),
      opt("spread-job", Arg.NONE, "spread-job"),
      opt("switches", Arg.REQUIRED, "switches"),
      opt("tasks-per-node", Arg.REQUIRED, "ntasks-per-node"),
      opt("thread-spec", Arg.REQUIRED, "thread-spec"),
      opt("threads-per-core", Arg.REQUIRED, "threads-per-core"),
      opt("time", Arg.REQUIRED, "t"),
      opt("time-min", Arg.REQUIRED, "time-min"),
      opt("tmp", Arg.REQUIRED, "tmp"),
      opt("tres-per-task", Arg.REQUIRED, "tres-per-task"), // Slurm 23.11 and later
      opt("uid", Arg.REQUIRED, "uid"),
      opt("usage", Arg.NONE, "usage"),
      opt("use-min-nodes", Arg.NONE, "use-min-nodes"),
      opt("verbose", Arg.NONE, "v"),
      opt("version", Arg.NONE, "V"),
      opt("wait-all-nodes", Arg.REQUIRED, "wait-all-nodes"),
      opt("wckey", Arg.REQUIRED, "wckey"));

  /** Input environment variables (salloc(1)) for the options Corral acts on, in applying order. */
  static final List<Map.Entry<String, String>> ENVIRONMENT = List.of(
      Map.entry("SALLOC_ACCOUNT", "A"),
      Map.entry("SALLOC_RESERVATION", "reservation"),
      Map.entry("SALLOC_WCKEY", "wckey"),
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
      "A", "acctg-freq", "bell", "comment", "cpu-freq", "delay-boot",
      "get-user-env", "hint", "k", "m", "mail-type", "mail-user", "mcs-label", "mem-bind",
      "network", "no-bell", "O", "power", "priority", "profile", "q", "reboot",
      "spread-job", "use-min-nodes", "wait-all-nodes");

  private SallocOptionTable() {}

  static Getopt getopt() {
    return new Getopt(SHORT_OPTIONS, LONG_OPTIONS);
  }

  static String displayName(String key) {
    return Getopt.displayName(LONG_OPTIONS, key);
  }

  private static LongOpt opt(String name, Arg arg, String key) {
    return new LongOpt(name, arg, key);
  }
}

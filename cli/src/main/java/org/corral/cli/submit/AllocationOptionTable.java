package org.corral.cli.submit;

import java.util.ArrayList;
import java.util.List;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;

/**
 * The long options of sbatch, srun and salloc in one table, as Slurm keeps them in one
 * (slurm_opt.c): one row per option, naming the commands that take it. Each command's getopt
 * table is this one filtered, in this order, which is Slurm 22.05's (GNU's ambiguity message
 * lists candidates in table order: {@code srun --t} gives --threads --task-epilog ...). The key
 * of an option with a short form is its letter; an option spelled two ways shares one key.
 */
public final class AllocationOptionTable {

  /** The commands sharing the table. */
  public enum Program {
    SBATCH('b'), SRUN('r'), SALLOC('s');

    private final char code;

    Program(char code) {
      this.code = code;
    }
  }

  /** One option: its name, whether it takes a value, its key, and the commands ("brs") taking it. */
  public record Row(String name, Arg arg, String key, String programs) {
    boolean takenBy(Program p) {
      return programs.indexOf(p.code) >= 0;
    }
  }

  private static final Arg N = Arg.NONE;
  private static final Arg R = Arg.REQUIRED;
  private static final Arg O = Arg.OPTIONAL;

  static final List<Row> ROWS = List.of(
      row("accel-bind", R, "accel-bind", "r"),
      row("account", R, "A", "brs"),
      row("acctg-freq", R, "acctg-freq", "brs"),
      row("array", R, "a", "b"),
      row("batch", R, "batch", "b"),
      row("bcast", O, "bcast", "r"),
      row("bcast-exclude", R, "bcast-exclude", "r"),
      row("begin", R, "b", "brs"),
      row("bell", N, "bell", "s"),
      row("bb", R, "bb", "brs"),
      row("bbf", R, "bbf", "brs"),
      row("cluster-constraint", R, "cluster-constraint", "brs"),
      row("chdir", R, "D", "brs"),
      row("cluster", R, "M", "brs"),
      row("clusters", R, "M", "brs"),
      row("comment", R, "comment", "brs"),
      row("compress", O, "compress", "r"),
      row("container", R, "container", "brs"),
      row("context", R, "context", "brs"),
      row("contiguous", N, "contiguous", "brs"),
      row("constraint", R, "C", "brs"),
      row("core-spec", R, "S", "brs"),
      row("cores-per-socket", R, "cores-per-socket", "brs"),
      row("cpu-bind", R, "cpu-bind", "r"),
      row("cpu_bind", R, "cpu-bind", "r"),
      row("cpu-freq", R, "cpu-freq", "brs"),
      row("cpus-per-gpu", R, "cpus-per-gpu", "brs"),
      row("cpus-per-task", R, "c", "brs"),
      row("deadline", R, "deadline", "brs"),
      row("debugger-test", N, "debugger-test", "r"),
      row("delay-boot", R, "delay-boot", "brs"),
      row("dependency", R, "d", "brs"),
      row("disable-status", N, "X", "r"),
      row("distribution", R, "m", "brs"),
      row("epilog", R, "epilog", "r"),
      row("error", R, "e", "br"),
      row("exact", N, "exact", "r"),
      row("exclude", R, "x", "brs"),
      row("exclusive", O, "exclusive", "brs"),
      row("export", R, "export", "br"),
      row("export-file", R, "export-file", "b"),
      row("extra-node-info", R, "B", "brs"),
      row("get-user-env", O, "get-user-env", "bs"),
      row("gid", R, "gid", "brs"),
      row("gpu-bind", R, "gpu-bind", "brs"),
      row("gpu-freq", R, "gpu-freq", "brs"),
      row("gpus", R, "G", "brs"),
      row("gpus-per-node", R, "gpus-per-node", "brs"),
      row("gpus-per-socket", R, "gpus-per-socket", "brs"),
      row("gpus-per-task", R, "gpus-per-task", "brs"),
      row("gres", R, "gres", "brs"),
      row("gres-flags", R, "gres-flags", "brs"),
      row("help", N, "h", "brs"),
      row("het-group", R, "het-group", "r"),
      row("hint", R, "hint", "brs"),
      row("hold", N, "H", "brs"),
      row("ignore-pbs", N, "ignore-pbs", "b"),
      row("immediate", O, "I", "rs"),
      row("input", R, "i", "br"),
      row("interactive", N, "interactive", "r"),
      row("jobid", R, "jobid", "r"),
      row("job-name", R, "J", "brs"),
      row("kill-command", O, "K", "s"),
      row("kill-on-bad-exit", O, "K", "r"),
      row("kill-on-invalid-dep", R, "kill-on-invalid-dep", "b"),
      row("label", N, "l", "r"),
      row("licenses", R, "L", "brs"),
      row("mail-type", R, "mail-type", "brs"),
      row("mail-user", R, "mail-user", "brs"),
      row("mcs-label", R, "mcs-label", "brs"),
      row("mem", R, "mem", "brs"),
      row("mem-bind", R, "mem-bind", "brs"),
      row("mem-per-cpu", R, "mem-per-cpu", "brs"),
      row("mem-per-gpu", R, "mem-per-gpu", "brs"),
      row("mincpus", R, "mincpus", "brs"),
      row("mpi", R, "mpi", "r"),
      row("msg-timeout", R, "msg-timeout", "r"),
      row("multi-prog", N, "multi-prog", "r"),
      row("network", R, "network", "brs"),
      row("nice", O, "nice", "brs"),
      row("no-allocate", N, "Z", "r"),
      row("no-bell", N, "no-bell", "s"),
      row("no-kill", O, "k", "brs"),
      row("no-requeue", N, "no-requeue", "b"),
      row("no-shell", N, "no-shell", "s"),
      row("nodefile", R, "F", "brs"),
      row("nodelist", R, "w", "brs"),
      row("nodes", R, "N", "brs"),
      row("ntasks", R, "n", "brs"),
      row("ntasks-per-core", R, "ntasks-per-core", "brs"),
      row("ntasks-per-gpu", R, "ntasks-per-gpu", "brs"),
      row("ntasks-per-node", R, "ntasks-per-node", "brs"),
      row("ntasks-per-socket", R, "ntasks-per-socket", "brs"),
      row("ntasks-per-tres", R, "ntasks-per-tres", "brs"),
      row("open-mode", R, "open-mode", "br"),
      row("output", R, "o", "br"),
      row("overcommit", N, "O", "brs"),
      row("overlap", N, "overlap", "r"),
      row("oversubscribe", N, "s", "brs"),
      row("pack-group", R, "het-group", "r"),
      row("parsable", N, "parsable", "b"),
      row("partition", R, "p", "brs"),
      row("power", R, "power", "brs"),
      row("prefer", R, "prefer", "brs"),
      row("preserve-env", N, "E", "r"),
      row("priority", R, "priority", "brs"),
      row("profile", R, "profile", "brs"),
      row("prolog", R, "prolog", "r"),
      row("propagate", O, "propagate", "br"),
      row("pty", N, "pty", "r"),
      row("qos", R, "q", "brs"),
      row("quiet", N, "Q", "brs"),
      row("quit-on-interrupt", N, "quit-on-interrupt", "r"),
      row("reboot", N, "reboot", "brs"),
      row("relative", R, "r", "r"),
      row("requeue", N, "requeue", "b"),
      row("reservation", R, "reservation", "brs"),
      row("resv-ports", O, "resv-ports", "r"),
      row("send-libs", O, "send-libs", "r"),
      row("signal", R, "signal", "brs"),
      row("slurmd-debug", R, "slurmd-debug", "r"),
      row("sockets-per-node", R, "sockets-per-node", "brs"),
      row("spread-job", N, "spread-job", "brs"),
      row("switches", R, "switches", "brs"),
      row("threads", R, "T", "r"),
      row("task-epilog", R, "task-epilog", "r"),
      row("task-prolog", R, "task-prolog", "r"),
      row("tasks-per-node", R, "ntasks-per-node", "brs"),
      row("test-only", N, "test-only", "br"),
      row("thread-spec", R, "thread-spec", "brs"),
      row("threads-per-core", R, "threads-per-core", "brs"),
      row("time", R, "t", "brs"),
      row("time-min", R, "time-min", "brs"),
      row("tmp", R, "tmp", "brs"),
      row("tres-per-task", R, "tres-per-task", "brs"), // Slurm 23.11 and later
      row("uid", R, "uid", "brs"),
      row("unbuffered", N, "u", "r"),
      row("use-min-nodes", N, "use-min-nodes", "brs"),
      row("usage", N, "usage", "brs"),
      row("verbose", N, "v", "brs"),
      row("version", N, "V", "brs"),
      row("wait", N, "W", "b"),          // sbatch: wait for the job's end
      row("wait", R, "W", "r"),          // srun: seconds to wait after the first task ends
      row("wait-all-nodes", R, "wait-all-nodes", "bs"),
      row("wckey", R, "wckey", "brs"),
      row("whole", N, "whole", "r"),
      row("wrap", R, "wrap", "b"),
      row("x11", O, "x11", "rs"));

  private AllocationOptionTable() {}

  /** One command's long options, in the table's order. */
  public static List<LongOpt> longOptions(Program program) {
    List<LongOpt> opts = new ArrayList<>();
    for (Row r : ROWS) {
      if (r.takenBy(program)) {
        opts.add(new LongOpt(r.name(), r.arg(), r.key()));
      }
    }
    return List.copyOf(opts);
  }

  /** One command's getopt, its short options as given. */
  public static Getopt getopt(String shortOptions, Program program) {
    return new Getopt(shortOptions, longOptions(program));
  }

  private static Row row(String name, Arg arg, String key, String programs) {
    return new Row(name, arg, key, programs);
  }
}

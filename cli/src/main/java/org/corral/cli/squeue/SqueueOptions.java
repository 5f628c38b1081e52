package org.corral.cli.squeue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.corral.cli.format.JobStates;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.Hostlist;

/** squeue's options, from SQUEUE_* variables first and then the command line. */
record SqueueOptions(
    String format,
    String longFormat,
    String sort,
    boolean header,
    boolean dateLine,
    List<Integer> jobIds,
    JobStates.Filter states,
    List<String> users,
    List<String> partitions,
    List<String> names,
    List<String> nodes,
    List<String> steps,
    String stepFormat,
    boolean expandArrays,
    boolean json,
    List<String> accounts,
    List<String> qos,
    String info,
    List<String> arrayTasks,
    int iterate) {

  /** A bad option value; each line is printed as "squeue: error: LINE". */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;
    private final List<String> lines;

    UsageException(String... lines) {
      super(String.join("\n", lines));
      this.lines = List.of(lines);
    }

    List<String> lines() {
      return lines;
    }
  }

  private static final Getopt GETOPT = new Getopt("A:ahi:j::lL:M:n:o:O:p:P:q:rR:s::S:t:u:vVw:", List.of(
      new LongOpt("account", Arg.REQUIRED, "A"),
      new LongOpt("accounts", Arg.REQUIRED, "A"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("federation", Arg.NONE, "federation"),
      new LongOpt("hide", Arg.NONE, "hide"),
      new LongOpt("licenses", Arg.REQUIRED, "L"),
      new LongOpt("local", Arg.NONE, "local"),
      new LongOpt("me", Arg.NONE, "me"),
      new LongOpt("noconvert", Arg.NONE, "noconvert"),
      new LongOpt("nodes", Arg.REQUIRED, "w"),
      new LongOpt("partitions", Arg.REQUIRED, "p"),
      new LongOpt("priority", Arg.NONE, "P"),
      new LongOpt("qos", Arg.REQUIRED, "q"),
      new LongOpt("reservation", Arg.REQUIRED, "R"),
      new LongOpt("sibling", Arg.NONE, "sibling"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("usage", Arg.NONE, "usage"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("array", Arg.NONE, "r"),
      new LongOpt("all", Arg.NONE, "a"),
      new LongOpt("noheader", Arg.NONE, "h"),
      new LongOpt("iterate", Arg.REQUIRED, "i"),
      new LongOpt("jobs", Arg.OPTIONAL, "j"),
      new LongOpt("json", Arg.NONE, "json"),
      new LongOpt("long", Arg.NONE, "l"),
      new LongOpt("name", Arg.REQUIRED, "n"),
      new LongOpt("format", Arg.REQUIRED, "o"),
      new LongOpt("Format", Arg.REQUIRED, "O"),
      new LongOpt("partition", Arg.REQUIRED, "p"),
      new LongOpt("sort", Arg.REQUIRED, "S"),
      new LongOpt("steps", Arg.OPTIONAL, "s"),
      new LongOpt("start", Arg.NONE, "start"),
      new LongOpt("states", Arg.REQUIRED, "t"),
      new LongOpt("user", Arg.REQUIRED, "u"),
      new LongOpt("users", Arg.REQUIRED, "u"),
      new LongOpt("nodelist", Arg.REQUIRED, "w")));

  static SqueueOptions parse(List<String> args, Map<String, String> env)
      throws Getopt.GetoptException, UsageException {
    var b = new Builder();
    b.format = env.get("SQUEUE_FORMAT");
    // SQUEUE_FORMAT wins over SQUEUE_FORMAT2 when both are set, as in Slurm.
    b.longFormat = b.format == null ? env.get("SQUEUE_FORMAT2") : null;
    b.sort = env.get("SQUEUE_SORT");
    if (env.get("SQUEUE_USERS") != null) {
      b.users = split(env.get("SQUEUE_USERS"));
    }
    if (env.get("SQUEUE_PARTITION") != null) {
      b.partitions = split(env.get("SQUEUE_PARTITION"));
    }
    if (env.get("SQUEUE_STATES") != null) {
      b.states = states(env.get("SQUEUE_STATES"));
    }
    Getopt.Result r = GETOPT.parse(args);
    boolean jobFlag = false;
    boolean stepFlag = false;
    for (Getopt.Opt o : r.options()) {
      String v = o.value();
      switch (o.key()) {
        case "h" -> b.header = false;
        case "j" -> {
          jobFlag = true;
          if (v != null) {
            b.jobIds = jobIds(v, b.arrayTasks);
          }
        }
        case "l" -> {
          b.dateLine = true;
          b.longListing = true;
        }
        case "n" -> b.names = split(v);
        case "o" -> {
          b.format = v;
          b.longFormat = null;
        }
        case "O" -> {
          b.longFormat = v;
          b.format = null;
        }
        case "p" -> b.partitions = split(v);
        case "S" -> b.sort = v;
        case "s" -> {
          stepFlag = true;
          b.steps = v == null ? List.of() : split(v);
        }
        case "start" -> b.start = true;
        case "r" -> b.expandArrays = true;
        case "json" -> b.json = true;
        case "A" -> b.accounts = split(v);
        case "q" -> b.qos = split(v);
        case "me" -> b.users = List.of(System.getProperty("user.name"));
        case "usage", "help", "V" -> b.info = b.info == null ? o.key() : b.info; // the first one wins
        case "t" -> b.states = states(v);
        case "u" -> b.users = split(v);
        case "w" -> b.nodes = Hostlist.expand(v);
        case "i" -> {
          Integer seconds = org.corral.cli.format.Iteration.seconds(v);
          if (seconds == null) {
            throw new UsageException("--iterate=" + v + "\n"); // Slurm's own blank line
          }
          b.iterate = seconds;
          b.dateLine = true; // each listing's date line
        }
        default -> { } // -a, -M, -v: accepted; nothing they change here
      }
    }
    if (!r.operands().isEmpty()) {
      if (stepFlag && !jobFlag) {
        b.steps = split(r.operands().get(0));
      } else if (!jobFlag) {
        throw new UsageException("Unrecognized option: " + r.operands().get(0));
      } else {
        b.jobIds = jobIds(r.operands().get(0), b.arrayTasks);
      }
    }
    return b.build();
  }

  private static List<String> split(String v) {
    return Arrays.stream(v.split(",")).filter(s -> !s.isEmpty()).toList();
  }

  private static JobStates.Filter states(String v) throws UsageException {
    try {
      return JobStates.parseFilter(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("Invalid job state specified: " + e.getMessage(),
          "Valid job states include: " + JobStates.VALID_NAMES + "\n"); // Slurm's own blank line
    }
  }

  private static List<Integer> jobIds(String v, List<String> tasks) throws UsageException {
    List<Integer> ids = new ArrayList<>();
    for (String s : split(v)) {
      if (s.trim().matches("\\d+_\\d+")) { // one task of an array
        tasks.add(s.trim());
        continue;
      }
      try {
        ids.add(Integer.parseUnsignedInt(s.trim()));
      } catch (NumberFormatException e) {
        throw new UsageException("Invalid job id: " + s);
      }
    }
    return ids;
  }

  private static final class Builder {
    String format;
    String longFormat;
    String sort;
    boolean header = true;
    boolean dateLine;
    /** -l: the long default format (and the date line). */
    boolean longListing;
    boolean start;
    boolean expandArrays;
    boolean json;
    int iterate;
    String info;
    final List<String> arrayTasks = new ArrayList<>();
    List<String> accounts;
    List<String> qos;
    List<Integer> jobIds;
    JobStates.Filter states;
    List<String> users;
    List<String> partitions;
    List<String> names;
    List<String> nodes;
    List<String> steps;

    SqueueOptions build() throws UsageException {
      String fmt = format;
      if (start) {
        // --start: pending jobs by expected start, unless the user chose otherwise
        if (fmt == null) {
          fmt = SqueueCommand.START_FORMAT;
        }
        if (sort == null) {
          sort = "S";
        }
        if (states == null) {
          states = JobStates.parseFilter("PD");
        }
      }
      if (fmt == null) {
        fmt = longListing ? SqueueCommand.LONG_FORMAT : SqueueCommand.DEFAULT_FORMAT;
      }
      return new SqueueOptions(fmt, longFormat, sort == null ? JobOrder.DEFAULT : sort, header,
          dateLine, jobIds, states, users, partitions, names, nodes, steps,
          format != null ? format : StepListing.DEFAULT_FORMAT, expandArrays, json,
          accounts, qos, info, arrayTasks, iterate);
    }
  }
}

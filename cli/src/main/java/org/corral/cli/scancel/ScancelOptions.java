package org.corral.cli.scancel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.getopt.Getopt.Opt;
import org.corral.protocol.msg.JobState;

/** scancel's options and job ids, parsed and checked as Slurm 22.05's scancel does. */
final class ScancelOptions {

  static final String SHORT_OPTIONS = "A:bfHiM:n:p:Qq:R:s:t:u:vVw:";

  /** Every long option of Slurm's scancel, in its order, so abbreviations resolve alike. */
  static final List<LongOpt> LONG_OPTIONS = List.of(
      new LongOpt("account", Arg.REQUIRED, "A"),
      new LongOpt("batch", Arg.NONE, "b"),
      new LongOpt("ctld", Arg.NONE, "ctld"),
      new LongOpt("cluster", Arg.REQUIRED, "M"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("full", Arg.NONE, "f"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("hurry", Arg.NONE, "H"),
      new LongOpt("interactive", Arg.NONE, "i"),
      new LongOpt("jobname", Arg.REQUIRED, "n"),
      new LongOpt("me", Arg.NONE, "me"),
      new LongOpt("name", Arg.REQUIRED, "n"),
      new LongOpt("nodelist", Arg.REQUIRED, "w"),
      new LongOpt("partition", Arg.REQUIRED, "p"),
      new LongOpt("qos", Arg.REQUIRED, "q"),
      new LongOpt("quiet", Arg.NONE, "Q"),
      new LongOpt("reservation", Arg.REQUIRED, "R"),
      new LongOpt("sibling", Arg.REQUIRED, "sibling"),
      new LongOpt("signal", Arg.REQUIRED, "s"),
      new LongOpt("state", Arg.REQUIRED, "t"),
      new LongOpt("usage", Arg.NONE, "usage"),
      new LongOpt("user", Arg.REQUIRED, "u"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("wckey", Arg.REQUIRED, "wckey"));

  final List<Integer> jobIds = new ArrayList<>();
  /** Array tasks named "12_3" or "12_[1-3,7]": {array job id, task id}. */
  final List<int[]> arrayTasks = new ArrayList<>();
  /** Steps named as JOB.STEP: {job, step} pairs. */
  final List<int[]> steps = new ArrayList<>();
  /** The signal to send, or null to cancel the job. */
  Integer signal;
  boolean batch;
  boolean full;
  int verbose;
  boolean quiet;
  String user;
  JobState state;
  String partition;
  String name;
  String account;
  String qos;
  String nodeList;
  String reservation;
  String wckey;
  /** -i: ask before each job. */
  boolean interactive;

  /** What is asked for instead of cancelling: "help", "usage", "V", or null. */
  String informational;

  /** Parses scancel's arguments; the current user is what --me names. */
  static ScancelOptions parse(List<String> args, String program, String currentUser)
      throws ScancelFailure {
    Getopt.Result parsed;
    try {
      parsed = new Getopt(SHORT_OPTIONS, LONG_OPTIONS).parse(args);
    } catch (Getopt.GetoptException e) {
      throw new ScancelFailure(program + ": " + e.getMessage(),
          "Try \"scancel --help\" for more information");
    }
    ScancelOptions o = new ScancelOptions();
    for (Opt opt : parsed.options()) {
      o.apply(opt, currentUser);
      if (o.informational != null) {
        return o;
      }
    }
    for (String operand : parsed.operands()) {
      int dot = operand.indexOf('.');
      int underscore = operand.indexOf('_');
      if (dot > 0 && underscore < 0) {
        o.steps.add(new int[] {jobId(operand.substring(0, dot)), stepId(operand)});
      } else if (underscore > 0 && dot < 0) {
        int array = jobId(operand.substring(0, underscore));
        String tasks = operand.substring(underscore + 1);
        if (tasks.startsWith("[") && tasks.endsWith("]")) {
          tasks = tasks.substring(1, tasks.length() - 1);
        }
        try {
          for (int t : org.corral.common.ArrayTasks.parse(tasks, Integer.MAX_VALUE).ids()) {
            o.arrayTasks.add(new int[] {array, t});
          }
        } catch (IllegalArgumentException e) {
          throw ScancelFailure.error("Invalid job id " + operand);
        }
      } else {
        o.jobIds.add(jobId(operand));
      }
    }
    if (o.jobIds.isEmpty() && o.steps.isEmpty() && o.arrayTasks.isEmpty() && !o.hasFilter()) {
      throw ScancelFailure.error("No job identification provided");
    }
    return o;
  }

  /** The same action on these jobs alone (-i's confirmed ones): their filters already applied. */
  ScancelOptions onlyJobs(List<Integer> ids) {
    ScancelOptions o = new ScancelOptions();
    o.jobIds.addAll(ids);
    o.signal = signal;
    o.batch = batch;
    o.full = full;
    o.verbose = verbose;
    o.quiet = quiet;
    return o;
  }

  /** Whether jobs are chosen by their attributes rather than (or besides) by id. */
  boolean hasFilter() {
    return user != null || state != null || partition != null || name != null || account != null
        || qos != null || nodeList != null || reservation != null || wckey != null;
  }

  /** Signalling (-s, or -b which signals the batch shell) rather than cancelling. */
  boolean signalling() {
    return signal != null || batch;
  }

  /** The filters as Slurm describes them when none matches: "job_name=x state=PENDING ". */
  String describeFilters() {
    StringBuilder sb = new StringBuilder();
    append(sb, "account", account);
    append(sb, "job_name", name);
    append(sb, "nodelist", nodeList);
    append(sb, "partition", partition);
    append(sb, "qos", qos);
    append(sb, "reservation", reservation);
    append(sb, "state", state == null ? null : state.name());
    append(sb, "user_name", user);
    append(sb, "wckey", wckey);
    return sb.toString();
  }

  private static void append(StringBuilder sb, String field, String value) {
    if (value != null) {
      sb.append(field).append('=').append(value).append(' ');
    }
  }

  private void apply(Opt opt, String currentUser) throws ScancelFailure {
    String v = opt.value();
    switch (opt.key()) {
      case "help", "usage", "V" -> informational = opt.key();
      case "b" -> batch = true;
      case "f" -> full = true;
      case "v" -> verbose++;
      case "Q" -> quiet = true;
      case "u" -> user = v;
      case "me" -> user = currentUser;
      case "n" -> name = v;
      case "p" -> partition = v;
      case "t" -> state = state(v);
      case "A" -> account = v;
      case "q" -> qos = v;
      case "w" -> nodeList = v; // as Slurm's: a malformed list matches no job, it is no error
      case "R" -> reservation = v;
      case "wckey" -> wckey = v;
      case "i" -> interactive = true;
      case "s" -> {
        OptionalInt n = SignalNames.parse(v);
        if (n.isEmpty()) {
          throw new ScancelFailure("Unknown job signal: " + v);
        }
        signal = n.getAsInt();
      }
      // No burst buffers to skip stage-out for, one controller to talk to.
      case "H", "ctld" -> { }
      default -> throw ScancelFailure.error(
          "option " + displayName(opt.key()) + " is not supported by Corral");
    }
  }

  private static JobState state(String text) throws ScancelFailure {
    return switch (text.strip().toUpperCase(Locale.ROOT)) {
      case "PENDING", "PD" -> JobState.PENDING;
      case "RUNNING", "R" -> JobState.RUNNING;
      case "SUSPENDED", "S" -> JobState.SUSPENDED;
      default -> throw new ScancelFailure("Invalid job state specified: " + text,
          "Valid job states are PENDING, RUNNING, and SUSPENDED");
    };
  }

  private static int stepId(String text) throws ScancelFailure {
    try {
      return org.corral.protocol.StepIds.parse(text.substring(text.indexOf('.') + 1));
    } catch (IllegalArgumentException e) {
      throw ScancelFailure.error("Invalid job id " + text);
    }
  }

  /** A job id operand. */
  private static int jobId(String text) throws ScancelFailure {
    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit) && text.length() <= 10) {
      long id = Long.parseLong(text);
      if (id > 0 && id <= 0xFFFFFFFFL) {
        return (int) id;
      }
    }
    throw ScancelFailure.error("Invalid job id " + text);
  }

  private static String displayName(String key) {
    for (LongOpt o : LONG_OPTIONS) {
      if (o.key().equals(key)) {
        return "--" + o.name();
      }
    }
    return "-" + key;
  }
}

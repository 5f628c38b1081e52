package org.corral.cli.sbatch;

import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.OptionValues;

/**
 * The job request sbatch is assembling. Options are applied in rising precedence (#SBATCH
 * directives, then SBATCH_* variables, then the command line), so a later value replaces an
 * earlier one. Values are validated as they are applied, with Slurm's messages.
 */
final class SbatchOptions {

  /** Where an option's value came from; decides which memory option survives a conflict. */
  enum Source { SCRIPT, ENVIRONMENT, COMMAND_LINE }

  private static final long NICE_LIMIT = 2147483645L;
  private static final int DEFAULT_NICE = 100;
  private static final String PROGRAM = "sbatch";

  String jobName;
  String partition;
  Integer minNodes;
  Integer maxNodes;
  Integer ntasks;
  Integer cpusPerTask;
  Integer ntasksPerNode;
  Long timeLimitMin;
  Long memMb;
  Source memSource;
  Long memPerCpuMb;
  Source memPerCpuSource;
  String output;
  String error;
  String input;
  String chdir;
  String export;
  boolean parsable;
  /** -W/--wait: sbatch exits when the job has, with its exit code. */
  boolean waitForEnd;
  /** -M/--clusters as given. */
  String clusters;
  boolean testOnly;
  boolean hold;
  String dependency;
  String array;
  String begin;
  String deadline;
  String nodeList;
  String excludeList;
  String constraint;
  String licenses;
  String account;
  String qos;
  String reservation;
  String wrap;
  String openMode;
  String comment;
  String wckey;
  Boolean requeue;
  WarnSignal warnSignal;
  boolean exclusive;
  boolean exclusiveUser;
  boolean oversubscribe;
  boolean contiguous;
  Integer nice;
  boolean quiet;
  final org.corral.cli.submit.GresOptions gres = new org.corral.cli.submit.GresOptions(PROGRAM);

  /** Applies one option by its key (see {@link SbatchOptionTable}); value null when absent. */
  void apply(String key, String value, Source source) throws CommandFailure {
    if (gres.apply(key, value)) {
      return;
    }
    switch (key) {
      case "J" -> jobName = value;
      case "p" -> partition = value;
      case "N" -> parseNodes(value);
      case "n" -> ntasks = positive(value, "--ntasks");
      case "c" -> cpusPerTask = positive(value, "--cpus-per-task");
      case "ntasks-per-node" -> ntasksPerNode = positive(value, "--ntasks-per-node");
      case "t" -> timeLimitMin = parseTime(value);
      case "mem" -> {
        memMb = memory(value, "--mem");
        memSource = source;
      }
      case "mem-per-cpu" -> {
        memPerCpuMb = memory(value, "--mem-per-cpu");
        memPerCpuSource = source;
      }
      case "o" -> output = value;
      case "e" -> error = value;
      case "i" -> input = value;
      case "D" -> chdir = value;
      case "export" -> export = value;
      case "parsable" -> parsable = true;
      case "W" -> waitForEnd = true;
      case "M" -> clusters = value;
      case "wait-all-nodes" -> checkWaitAllNodes(value);
      case "H" -> hold = true;
      case "d" -> dependency = value;
      case "A" -> account = value;
      case "q" -> qos = value;
      case "wrap" -> wrap = value;
      case "open-mode" -> openMode = parseOpenMode(value);
      case "comment" -> comment = value;
      case "wckey" -> wckey = value;
      case "requeue" -> requeue = true;
      case "no-requeue" -> requeue = false;
      case "signal" -> warnSignal = WarnSignal.parse(value);
      case "exclusive" -> {
        exclusive = parseExclusive(value);
        exclusiveUser = !exclusive; // --exclusive=user
      }
      case "s" -> oversubscribe = true;
      case "contiguous" -> contiguous = true;
      case "nice" -> nice = parseNice(value);
      case "Q" -> quiet = true;
      case "test-only" -> testOnly = true;
      case "a" -> array = value;
      case "b" -> begin = value;
      case "deadline" -> deadline = value;
      case "w" -> nodeList = value;
      case "x" -> excludeList = value;
      case "C" -> constraint = value;
      case "L" -> licenses = value;
      case "reservation" -> reservation = value;
      case "h", "usage", "V" -> {
        // Acted on before anything else is read (see SbatchCommand); nothing to store.
      }
      default -> {
        if (!SbatchOptionTable.NO_EFFECT.contains(key)) {
          throw SbatchFailure.error(
              "option " + SbatchOptionTable.displayName(key) + " is not supported by Corral");
        }
      }
    }
  }

  /**
   * --wait-all-nodes=0|1, with Slurm's messages. A Corral node is ready when it is allocated (no
   * nodes to boot), so either value starts the script at once.
   */
  private static void checkWaitAllNodes(String value) throws CommandFailure {
    if (value == null || value.isEmpty()) {
      return;
    }
    if (!value.matches("\\d{1,9}")) {
      throw SbatchFailure.error("Invalid numeric value \"" + value + "\" for --wait-all-nodes.");
    }
    if (Integer.parseInt(value) > 1) {
      throw SbatchFailure.invalid("Invalid --wait-all-nodes specification");
    }
  }

  /**
   * Checks that need every option applied. Slurm refuses both memory options together, except
   * that one set only through the environment yields to the other.
   */
  void validate() throws CommandFailure {
    if (memMb != null && memPerCpuMb != null) {
      if (OptionValues.keepMemPerCpu(PROGRAM, memSource == Source.ENVIRONMENT,
          memPerCpuSource == Source.ENVIRONMENT)) {
        memMb = null;
      } else {
        memPerCpuMb = null;
      }
    }
  }


  private void parseNodes(String value) throws CommandFailure {
    int[] range = OptionValues.nodeRange(PROGRAM, value);
    minNodes = range[0];
    maxNodes = range[1];
  }

  private static Integer positive(String value, String option) throws CommandFailure {
    return OptionValues.positive(PROGRAM, value, option);
  }

  private static long parseTime(String value) throws CommandFailure {
    return OptionValues.minutes(PROGRAM, value);
  }

  private static long memory(String value, String option) throws CommandFailure {
    return OptionValues.memoryMb(PROGRAM, value, option);
  }

  private static String parseOpenMode(String value) throws CommandFailure {
    return OptionValues.openMode(PROGRAM, value);
  }


  /** True for --exclusive, false for --exclusive=user. */
  private static boolean parseExclusive(String value) throws SbatchFailure {
    if (value == null || value.isEmpty()) {
      return true;
    }
    if (value.equalsIgnoreCase("user")) {
      return false;
    }
    if (value.equalsIgnoreCase("mcs")) {
      throw SbatchFailure.error("option --exclusive=" + value + " is not supported by Corral");
    }
    throw SbatchFailure.invalid("Invalid --exclusive specification");
  }

  private static int parseNice(String value) throws SbatchFailure {
    if (value == null) {
      return DEFAULT_NICE;
    }
    long n;
    try {
      n = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw SbatchFailure.invalid("Invalid --nice value: " + value);
    }
    if (Math.abs(n) > NICE_LIMIT) {
      throw SbatchFailure.invalid("Invalid --nice value, out of range (+/- " + NICE_LIMIT + ")");
    }
    return (int) n;
  }
}

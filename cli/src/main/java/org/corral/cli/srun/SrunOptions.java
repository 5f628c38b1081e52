package org.corral.cli.srun;

import java.util.Locale;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.InteractiveAllocation;
import org.corral.cli.submit.OptionValues;
import org.corral.cli.submit.ResourceOptions;
import org.corral.cli.submit.ResourceOptions.Source;

/**
 * What srun was asked for: the shared resource options plus srun's own (I/O, MPI, exit
 * handling). Applied in rising precedence, environment first, then the command line.
 */
final class SrunOptions {

  static final String PROGRAM = "srun";

  final ResourceOptions resources = new ResourceOptions(PROGRAM);
  String export;
  boolean label;
  String output;
  String error;
  String input;
  boolean pty;
  boolean overlap;
  /** --mpi or SLURM_MPI_TYPE (see {@link MpiType}); null: slurm.conf's MpiDefault. */
  String mpi;
  boolean killOnBadExit;
  Integer waitSeconds;
  boolean multiProg;
  boolean unbuffered;
  String cpuBind = "";
  boolean disableStatus;
  boolean quitOnInterrupt;
  String openMode;
  Integer jobId;
  /** -I/--immediate: 0 when bare, else seconds; null without it. */
  Integer immediate;

  /** Applies one option by its key (see {@link SrunOptionTable}); value null when absent. */
  void apply(String key, String value, Source source) throws CommandFailure {
    if (resources.apply(key, value, source)) {
      return;
    }
    switch (key) {
      case "export" -> export = value;
      case "l" -> label = flag(value);
      case "o" -> output = value;
      case "e" -> error = value;
      case "i" -> input = value;
      case "pty" -> pty = true;
      case "overlap" -> overlap = true;
      case "exact" -> { } // steps only ever get the CPUs they ask for (Slurm 22.05's default too)
      case "mpi" -> mpi = MpiType.parse(value);
      case "K" -> killOnBadExit = flag(value);
      case "W" -> waitSeconds = nonNegative(value, "--wait");
      case "multi-prog" -> multiProg = true;
      case "u" -> unbuffered = true;
      case "cpu-bind" -> cpuBind = parseCpuBind(value);
      case "X" -> disableStatus = true;
      case "quit-on-interrupt" -> quitOnInterrupt = true;
      case "open-mode" -> openMode = parseOpenMode(value);
      case "jobid" -> jobId = positiveJobId(value);
      case "I" -> immediate = InteractiveAllocation.immediateSeconds(PROGRAM, value);
      case "h", "usage", "V" -> { } // acted on before anything else (see SrunCommand)
      default -> {
        if (!ResourceOptions.NO_EFFECT.contains(key) && !SrunOptionTable.NO_EFFECT.contains(key)) {
          throw CommandFailure.error(PROGRAM,
              "option " + SrunOptionTable.displayName(key) + " is not supported by Corral");
        }
      }
    }
  }

  /** Options given as variables may say 0 or 1 ("SLURM_KILL_BAD_EXIT=0" turns -K off). */
  private static boolean flag(String value) {
    return value == null || !value.strip().equals("0");
  }

  private static Integer nonNegative(String value, String option) throws CommandFailure {
    String v = value == null ? "" : value.strip();
    if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(Character::isDigit)) {
      throw CommandFailure.error(PROGRAM, "Invalid numeric value \"" + value + "\" for " + option + ".");
    }
    return Integer.parseInt(v);
  }

  private static Integer positiveJobId(String value) throws CommandFailure {
    Integer n = value == null || value.isBlank() ? null : nonNegative(value, "--jobid");
    if (n == null || n == 0) {
      throw CommandFailure.error(PROGRAM, "Invalid numeric value \"" + value + "\" for --jobid.");
    }
    return n;
  }

  /**
   * --cpu-bind=[quiet|verbose,]none|cores. The verbosity words are accepted (the variable
   * SLURM_CPU_BIND carries them into nested steps); other binding types are not supported.
   */
  private static String parseCpuBind(String value) throws CommandFailure {
    String type = "";
    for (String part : (value == null ? "" : value).split(",")) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      switch (p) {
        case "", "q", "quiet", "v", "verbose" -> { }
        case "none", "no" -> type = "none";
        case "cores" -> type = "cores";
        default -> throw CommandFailure.error(PROGRAM,
            "option --cpu-bind=" + value + " is not supported by Corral");
      }
    }
    return type;
  }

  private static String parseOpenMode(String value) throws CommandFailure {
    return OptionValues.openMode(PROGRAM, value);
  }

}

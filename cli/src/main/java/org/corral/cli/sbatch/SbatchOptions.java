package org.corral.cli.sbatch;

import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.OptionValues;
import org.corral.cli.submit.ResourceOptions;
import org.corral.cli.submit.ResourceOptions.Source;

/**
 * The job request sbatch is assembling: the allocation options it shares with srun and salloc,
 * plus its own (output files, --export, --array, --wrap, ...). Options are applied in rising
 * precedence (#SBATCH directives, then SBATCH_* variables, then the command line), so a later
 * value replaces an earlier one. Values are validated as they are applied, with Slurm's messages.
 */
final class SbatchOptions {

  private static final String PROGRAM = "sbatch";

  final ResourceOptions allocation = new ResourceOptions(PROGRAM);
  String output;
  String error;
  String input;
  String export;
  boolean parsable;
  /** -W/--wait: sbatch exits when the job has, with its exit code. */
  boolean waitForEnd;
  /** -M/--clusters as given. */
  String clusters;
  boolean testOnly;
  String array;
  String wrap;
  String openMode;
  Boolean requeue;
  WarnSignal warnSignal;

  /** Applies one option by its key (see {@link SbatchOptionTable}); value null when absent. */
  void apply(String key, String value, Source source) throws CommandFailure {
    if (allocation.apply(key, value, source)) {
      return;
    }
    switch (key) {
      case "o" -> output = value;
      case "e" -> error = value;
      case "i" -> input = value;
      case "export" -> export = value;
      case "parsable" -> parsable = true;
      case "W" -> waitForEnd = true;
      case "M" -> clusters = value;
      case "wait-all-nodes" -> checkWaitAllNodes(value);
      case "wrap" -> wrap = value;
      case "open-mode" -> openMode = OptionValues.openMode(PROGRAM, value);
      case "requeue" -> requeue = true;
      case "no-requeue" -> requeue = false;
      case "signal" -> warnSignal = WarnSignal.parse(value);
      case "test-only" -> testOnly = true;
      case "a" -> array = value;
      case "h", "usage", "V" -> {
        // Acted on before anything else is read (see SbatchCommand); nothing to store.
      }
      default -> {
        if (!ResourceOptions.NO_EFFECT.contains(key) && !SbatchOptionTable.NO_EFFECT.contains(key)) {
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
   * Checks that need every option applied (the two memory options).
   */
  void validate() throws CommandFailure {
    allocation.validate();
  }
}

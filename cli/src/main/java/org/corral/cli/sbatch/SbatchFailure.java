package org.corral.cli.sbatch;

import java.util.List;

/**
 * Why sbatch stops: the lines it prints on stderr (each already prefixed as Slurm prints it,
 * e.g. "sbatch: error: ...") and its exit status.
 */
final class SbatchFailure extends Exception {
  private static final long serialVersionUID = 1L;

  /** Exit status of Slurm's option-validation errors, which call exit(-1). */
  static final int USAGE_STATUS = 255;

  private final transient List<String> lines;
  private final int exitStatus;

  SbatchFailure(int exitStatus, List<String> lines) {
    super(String.join("\n", lines));
    this.exitStatus = exitStatus;
    this.lines = List.copyOf(lines);
  }

  /** "sbatch: error: MESSAGE", exit 1. */
  static SbatchFailure error(String message) {
    return new SbatchFailure(1, List.of("sbatch: error: " + message));
  }

  /** "sbatch: error: MESSAGE" for an invalid option value, exit 255 as Slurm's exit(-1). */
  static SbatchFailure invalid(String message) {
    return new SbatchFailure(USAGE_STATUS, List.of("sbatch: error: " + message));
  }

  /** "sbatch: fatal: MESSAGE", exit 1. */
  static SbatchFailure fatal(String message) {
    return new SbatchFailure(1, List.of("sbatch: fatal: " + message));
  }

  List<String> lines() { return lines; }

  int exitStatus() { return exitStatus; }
}

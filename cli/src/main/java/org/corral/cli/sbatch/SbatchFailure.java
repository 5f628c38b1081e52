package org.corral.cli.sbatch;

import java.util.List;
import org.corral.cli.submit.CommandFailure;

/** Why sbatch stops: a {@link CommandFailure} under sbatch's name. */
final class SbatchFailure extends CommandFailure {
  private static final long serialVersionUID = 1L;

  SbatchFailure(int exitStatus, List<String> lines) {
    super(exitStatus, lines);
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
}

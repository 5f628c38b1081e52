package org.corral.cli.submit;

import java.util.List;

/**
 * Why a command stops: the lines it prints on stderr (each already prefixed as Slurm prints
 * it, e.g. "srun: error: ...") and its exit status.
 */
public class CommandFailure extends Exception {
  private static final long serialVersionUID = 1L;

  /** Exit status of Slurm's option-validation errors, which call exit(-1). */
  public static final int USAGE_STATUS = 255;

  private final transient List<String> lines;
  private final int exitStatus;

  public CommandFailure(int exitStatus, List<String> lines) {
    super(String.join("\n", lines));
    this.exitStatus = exitStatus;
    this.lines = List.copyOf(lines);
  }

  /** "PROGRAM: error: MESSAGE", exit 1. */
  public static CommandFailure error(String program, String message) {
    return new CommandFailure(1, List.of(program + ": error: " + message));
  }

  /** "PROGRAM: error: MESSAGE" for an invalid option value, exit 255 as Slurm's exit(-1). */
  public static CommandFailure invalid(String program, String message) {
    return new CommandFailure(USAGE_STATUS, List.of(program + ": error: " + message));
  }

  /** "PROGRAM: fatal: MESSAGE", exit 1. */
  public static CommandFailure fatal(String program, String message) {
    return new CommandFailure(1, List.of(program + ": fatal: " + message));
  }

  public List<String> lines() { return lines; }

  public int exitStatus() { return exitStatus; }
}

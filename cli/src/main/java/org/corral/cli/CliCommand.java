package org.corral.cli;

import java.util.List;

/** One user command (sbatch, squeue, ...): parses its arguments and returns the exit code. */
public interface CliCommand {
  int run(List<String> args, Cli cli);
}

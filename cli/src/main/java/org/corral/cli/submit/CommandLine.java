package org.corral.cli.submit;

import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Opt;

/** The start every srun and salloc run shares: getopt with Slurm's usage error, then --help, --usage, -V. */
public final class CommandLine {

  /** What {@code --version} prints: the Slurm release whose behaviour Corral follows. */
  public static final String VERSION = org.corral.common.Version.TEXT;

  private CommandLine() {}

  /** Parses the arguments; a usage error is GNU's message and Slurm's hint, exit 255. */
  public static Getopt.Result parse(Getopt getopt, List<String> args, String program) throws CommandFailure {
    try {
      return getopt.parse(args);
    } catch (Getopt.GetoptException e) {
      throw new CommandFailure(CommandFailure.USAGE_STATUS, List.of(program + ": " + e.getMessage(),
          "Try \"" + program + " --help\" for more information"));
    }
  }

  /**
   * Acts on --help, --usage or --version when given (texts are resources beside
   * {@code owner}); returns the exit code then, null otherwise.
   */
  public static Integer informational(Getopt.Result parsed, Cli cli, Class<?> owner, String program)
      throws CommandFailure {
    for (Opt o : parsed.options()) {
      switch (o.key()) {
        case "h" -> { return HelpText.print(cli, owner, "help.txt", program); }
        case "usage" -> { return HelpText.print(cli, owner, "usage.txt", program); }
        case "V" -> {
          cli.out().println(VERSION);
          return 0;
        }
        default -> { }
      }
    }
    return null;
  }
}

package org.corral.cli.submit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.corral.cli.Cli;
import org.corral.common.Version;

/** Prints a command's --help or --usage text, kept as a resource beside its class. */
public final class HelpText {

  private HelpText() {}

  /**
   * What an informational option prints, before anything else is done: {@code V} (--version)
   * Slurm's version line, {@code help} the command's help.txt, {@code usage} {@code usage} (or its
   * usage.txt when null). Returns exit code 0, as Slurm's commands do.
   */
  public static int info(Cli cli, Class<?> owner, String which, String usage) {
    try {
      switch (which) {
        case "V" -> cli.out().println(Version.TEXT);
        case "help" -> print(cli, owner, "help.txt", cli.program());
        default -> {
          if (usage != null) {
            cli.out().print(usage);
          } else {
            print(cli, owner, "usage.txt", cli.program());
          }
        }
      }
      return 0;
    } catch (CommandFailure e) {
      e.lines().forEach(cli.err()::println);
      return 1;
    }
  }

  /** Prints the resource to stdout; returns exit code 0. */
  public static int print(Cli cli, Class<?> owner, String resource, String program) throws CommandFailure {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw CommandFailure.error(program, "missing resource " + resource);
      }
      cli.out().print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return 0;
    } catch (IOException e) {
      throw CommandFailure.error(program, "cannot read " + resource + ": " + e.getMessage());
    }
  }
}

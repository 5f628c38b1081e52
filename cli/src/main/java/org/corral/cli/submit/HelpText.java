package org.corral.cli.submit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.corral.cli.Cli;

/** Prints a command's --help or --usage text, kept as a resource beside its class. */
public final class HelpText {

  private HelpText() {}

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

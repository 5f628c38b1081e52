package org.corral.cli.format;

import java.util.function.IntSupplier;
import org.corral.cli.Cli;

/**
 * squeue's and sinfo's -i/--iterate: the listing again every N seconds until the command is
 * interrupted, each followed by a blank line (its date line, printed with the header as -l
 * prints it, says when), as Slurm's commands print it.
 */
public final class Iteration {
  /** How the loop waits between two listings (tests pass one that counts). */
  public interface Pause {
    /** Waits; false ends the iteration. */
    boolean sleep(long millis) throws InterruptedException;
  }

  private Iteration() {}

  /** Lists every {@code seconds} until interrupted; the last listing's status. */
  public static int repeat(int seconds, Cli cli, IntSupplier listing) {
    return repeat(seconds, cli, listing, millis -> {
      Thread.sleep(millis);
      return true;
    });
  }

  static int repeat(int seconds, Cli cli, IntSupplier listing, Pause pause) {
    while (true) {
      int rc = listing.getAsInt();
      cli.out().println();
      cli.out().flush();
      try {
        if (!pause.sleep(seconds * 1000L)) {
          return rc;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return rc;
      }
    }
  }

  /** The --iterate value: a positive number of seconds, else null. */
  public static Integer seconds(String value) {
    return value != null && value.matches("\\d{1,9}") && Integer.parseInt(value) > 0 ? Integer.parseInt(value) : null;
  }
}

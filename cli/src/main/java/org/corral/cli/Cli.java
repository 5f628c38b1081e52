package org.corral.cli;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;
import org.corral.protocol.RpcChannel;

/**
 * What a command runs against: its streams, environment, clock and a channel to the controller.
 * Tests build one over in-memory streams; {@link Main} builds the real one.
 */
public record Cli(
    String program,
    PrintStream out,
    PrintStream err,
    Map<String, String> env,
    Clock clock,
    Supplier<RpcChannel> controller) {

  /** Prints "PROGRAM: message" to stderr, as Slurm's commands do for errors. */
  public void error(String message) {
    err.println(program + ": " + message);
  }
}

package org.corral.cli;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;
import org.corral.protocol.RpcChannel;

/**
 * What a command runs against: its streams, environment, clock, channels to the controller
 * and to slurmdbd (sacct, sacctmgr, sshare, sreport), and the process it runs for
 * ({@link Caller}). Tests build one over in-memory streams; {@link Main} builds the real one,
 * and the command server one per call.
 */
public record Cli(
    String program,
    PrintStream out,
    PrintStream err,
    Map<String, String> env,
    Clock clock,
    Supplier<RpcChannel> controller,
    Supplier<RpcChannel> accounting,
    Caller caller) {

  /** A command run for this JVM's own process. */
  public Cli(String program, PrintStream out, PrintStream err, Map<String, String> env, Clock clock,
      Supplier<RpcChannel> controller, Supplier<RpcChannel> accounting) {
    this(program, out, err, env, clock, controller, accounting, Caller.thisProcess());
  }

  /** A command that talks to the controller only. */
  public Cli(String program, PrintStream out, PrintStream err, Map<String, String> env, Clock clock,
      Supplier<RpcChannel> controller) {
    this(program, out, err, env, clock, controller, () -> {
      throw new IllegalStateException(program + " has no slurmdbd channel");
    }, Caller.thisProcess());
  }

  /** Prints "PROGRAM: message" to stderr, as Slurm's commands do for errors. */
  public void error(String message) {
    err.println(program + ": " + message);
  }
}

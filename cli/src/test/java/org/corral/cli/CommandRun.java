package org.corral.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** One run of a command in memory: its output and exit code, against a given controller. */
public record CommandRun(int exitCode, String out, String err) {

  public static CommandRun of(CliCommand command, String program, Map<String, String> env,
      Clock clock, RpcChannel controller, List<String> args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli(program, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env, clock, () -> controller);
    int rc = command.run(args, cli);
    return new CommandRun(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** A controller that records each request, then fails with {@code failure} or answers. */
  public static RpcChannel recording(List<Request> sent, IOException failure, Response answer) {
    return request -> {
      sent.add(request);
      if (failure != null) {
        throw failure;
      }
      return answer;
    };
  }
}

package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TokenRequest;

/**
 * {@code scontrol token [username=U] [lifespan=S]}: asks the controller for a JWT (auth/jwt) and
 * prints {@code SLURM_JWT=...}, the line clients of slurmrestd put into their environment.
 */
final class TokenCommand {
  private TokenCommand() {}

  static int run(List<String> args, Cli cli) {
    TokenRequest.Builder req = TokenRequest.newBuilder();
    for (String arg : args) {
      String lower = arg.toLowerCase(Locale.ROOT);
      if (lower.startsWith("username=") && arg.length() > "username=".length()) {
        req.setUserName(arg.substring("username=".length()));
      } else if (lower.startsWith("lifespan=")) {
        String value = arg.substring("lifespan=".length());
        if (!value.matches("[0-9]{1,9}") || Integer.parseInt(value) == 0) {
          cli.err().println("Invalid lifespan value: " + value);
          return 1;
        }
        req.setLifespanS(Integer.parseInt(value));
      } else {
        cli.err().println("Invalid token argument: " + arg);
        return 1;
      }
    }
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder().setToken(req).build());
    } catch (IOException e) {
      cli.err().println("slurm_fetch_token error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println("slurm_fetch_token error: " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    cli.out().println("SLURM_JWT=" + r.getToken().getToken());
    return 0;
  }
}

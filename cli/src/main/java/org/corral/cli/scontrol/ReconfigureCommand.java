package org.corral.cli.scontrol;

import java.io.IOException;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.ReconfigureRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol reconfigure}: the controller and every node daemon read their configuration
 * again. Silent on success; a refusal is "slurm_reconfigure error: ...", where a file the
 * controller could not use is named with its line and reason.
 */
final class ReconfigureCommand {
  private ReconfigureCommand() {}

  static int run(Cli cli) {
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder().setReconfigure(ReconfigureRequest.getDefaultInstance()).build());
    } catch (IOException e) {
      cli.err().println("slurm_reconfigure error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    if (r.getErrorCode() != 0) {
      // a file's fault names itself (the reference's controller exits instead: no message to copy)
      boolean ownText = r.getErrorCode() == SlurmError.UNEXPECTED.code() || r.getErrorCode() == SlurmError.NEED_RESTART.code();
      cli.err().println("slurm_reconfigure error: "
          + (ownText && !r.getErrorMessage().isEmpty() ? r.getErrorMessage() : SlurmError.messageFor(r.getErrorCode())));
      return 1;
    }
    return 0;
  }
}

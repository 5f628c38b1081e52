package org.corral.cli.scancel;

import java.io.IOException;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SignalStepRequest;

/** scancel JOB.STEP: cancels or signals single steps, one request each, with Slurm's messages. */
final class StepCancel {
  private StepCancel() {}

  /** Returns the exit status for the steps named: 0, or 1 when any could not be reached. */
  static int run(ScancelOptions o, Cli cli) {
    int status = 0;
    for (int[] step : o.steps) {
      String id = Integer.toUnsignedString(step[0]) + "." + StepIds.name(step[1]);
      if (o.verbose > 0) {
        cli.err().println(o.signal != null ? "scancel: Signal " + o.signal + " to step " + id
            : "scancel: Terminating step " + id);
      }
      SignalStepRequest.Builder req = SignalStepRequest.newBuilder().setJobId(step[0]).setStepId(step[1]);
      if (o.signal != null) {
        req.setSignal(o.signal);
      }
      String error;
      try {
        Response r = cli.controller().get().call(Request.newBuilder().setSignalStep(req).build());
        int code = r.getErrorCode();
        error = code == 0 ? null
            : code == SlurmError.ALREADY_DONE.code() ? SlurmError.INVALID_JOB_ID.message()
            : SlurmError.messageFor(code);
      } catch (IOException e) {
        error = SlurmError.CONTROLLER_DOWN.message();
      }
      if (error != null) {
        cli.error("error: Kill job error on job step id " + id + ": " + error);
        status = 1;
      }
    }
    return status;
  }
}

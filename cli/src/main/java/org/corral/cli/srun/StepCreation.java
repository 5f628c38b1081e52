package org.corral.cli.srun;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.SignalQueue;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.CreateStepReply;
import org.corral.protocol.msg.CreateStepRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepSpec;

/**
 * Asks the controller for a step. While other steps hold the CPUs it needs (NODES_BUSY) srun
 * says so once and retries, waiting a little longer each time, until it gets the step, a real
 * refusal, or a signal.
 */
final class StepCreation {

  static final long FIRST_RETRY_MS = 200;
  static final long MAX_RETRY_MS = 2000;

  private StepCreation() {}

  static CreateStepReply create(RpcChannel controller, StepSpec spec, PrintStream err,
      SignalQueue signals, boolean quiet) throws CommandFailure {
    int jobId = spec.getJobId();
    long delay = FIRST_RETRY_MS;
    boolean retried = false;
    while (true) {
      Response r;
      try {
        r = controller.call(Request.newBuilder().setCreateStep(CreateStepRequest.newBuilder().setSpec(spec)).build());
      } catch (IOException | UncheckedIOException e) {
        throw refused(jobId, SlurmError.CONTROLLER_DOWN.code());
      }
      if (r.getErrorCode() == 0) {
        if (retried && !quiet) {
          err.println("srun: Step created for job " + jobId);
        }
        return r.getCreateStep();
      }
      if (r.getErrorCode() != SlurmError.NODES_BUSY.code()) {
        throw refused(jobId, r.getErrorCode());
      }
      if (!retried && !quiet) {
        err.println("srun: Job " + jobId + " step creation temporarily disabled, retrying ("
            + SlurmError.messageFor(SlurmError.NODES_BUSY.code()) + ")");
      }
      retried = true;
      Integer sig = signals.poll(delay);
      if (sig != null && (sig == SignalQueue.SIGINT || sig == SignalQueue.SIGTERM || sig == SignalQueue.SIGHUP)) {
        throw new CommandFailure(1, List.of("srun: Cancelled pending job step with signal " + sig,
            refusedLine(jobId, SlurmError.ALREADY_DONE.code())));
      }
      delay = Math.min(MAX_RETRY_MS, delay * 2);
    }
  }

  private static CommandFailure refused(int jobId, int code) {
    return new CommandFailure(1, List.of(refusedLine(jobId, code)));
  }

  private static String refusedLine(int jobId, int code) {
    return "srun: error: Unable to create step for job " + jobId + ": " + SlurmError.messageFor(code);
  }
}

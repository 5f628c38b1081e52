package org.corral.cli.srun;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SignalStepRequest;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepInfoRequest;

/** A step's controller side through the controller's RPC. */
final class ControllerStepControl implements StepRun.StepControl {

  private final RpcChannel controller;
  private final StepInfo step;

  ControllerStepControl(RpcChannel controller, StepInfo step) {
    this.controller = controller;
    this.step = step;
  }

  @Override
  public void signal(int signal) {
    try {
      controller.call(Request.newBuilder().setSignalStep(SignalStepRequest.newBuilder()
          .setJobId(step.getJobId()).setStepId(step.getStepId()).setSignal(signal)).build());
    } catch (IOException | UncheckedIOException e) {
      // The controller is away: the nodes still end the tasks when the job ends.
    }
  }

  /**
   * The step now, running or as it ended (the controller keeps a job's ended steps while it
   * keeps the job); null when the controller no longer knows it. When the controller cannot be
   * asked, the step counts as still running.
   */
  @Override
  public StepInfo current() {
    Response r;
    try {
      r = controller.call(Request.newBuilder().setStepInfo(StepInfoRequest.newBuilder()
          .setJobId(step.getJobId()).setStepId(step.getStepId()).setWithEnded(true)).build());
    } catch (IOException | UncheckedIOException e) {
      return step.toBuilder().setState(JobState.RUNNING).build();
    }
    if (r.getErrorCode() != 0) {
      return null;
    }
    for (StepInfo s : r.getStepInfo().getStepsList()) {
      if (s.getStepId() == step.getStepId() && s.getJobId() == step.getJobId()) {
        return s;
      }
    }
    return null;
  }
}

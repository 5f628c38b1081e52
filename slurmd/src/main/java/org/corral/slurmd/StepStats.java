package org.corral.slurmd;

import org.corral.protocol.msg.StepStatReply;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.step.StepManager;

/**
 * The node's answer to the controller's usage question (sstat): the usage of the job's steps
 * running here: the batch step from the batch supervisor, srun's steps from the step manager.
 */
final class StepStats {
  private StepStats() {}

  static StepStatReply of(JobSupervisor jobs, StepManager steps, StepStatRequest req) {
    StepStatReply.Builder reply = StepStatReply.newBuilder();
    boolean all = req.getStep().isEmpty() && req.getAllSteps();
    if (all || req.getStep().equals("batch")) {
      jobs.batchUsage(req.getJobId()).ifPresent(reply::addSteps);
    }
    if (all || !req.getStep().isEmpty() && !req.getStep().equals("batch")) {
      reply.addAllSteps(steps.usage(req.getJobId(), all ? "" : req.getStep()));
    }
    return reply.build();
  }
}

package org.corral.slurmd;

import org.corral.protocol.msg.StepStatReply;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.slurmd.launch.JobSupervisor;

/**
 * The node's answer to the controller's usage question (sstat): the usage of the job's steps
 * running here. Only the batch step runs under this daemon's supervisor today; other steps
 * answer through the same {@code StepUsage} record.
 */
final class StepStats {
  private StepStats() {}

  static StepStatReply of(JobSupervisor jobs, StepStatRequest req) {
    StepStatReply.Builder reply = StepStatReply.newBuilder();
    boolean batchWanted = req.getStep().equals("batch") || (req.getStep().isEmpty() && req.getAllSteps());
    if (batchWanted) {
      jobs.batchUsage(req.getJobId()).ifPresent(reply::addSteps);
    }
    return reply.build();
  }
}

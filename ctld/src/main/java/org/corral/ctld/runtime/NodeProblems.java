package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.List;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.NodeAction;
import org.corral.ctld.state.NodeReasons;
import org.corral.protocol.msg.JobFinishedRequest;

/**
 * Turns a node's end report into commands: the job's end, and what the node's trouble means.
 * A failed Prolog drains the node and requeues the job held; a failed Epilog, or processes that
 * survived SIGKILL, drain the node (Slurm's reasons: "Prolog error", "Epilog error", "Kill task
 * failed").
 */
final class NodeProblems {
  /** squeue's reason for a job whose launch failed on a node and that went back held. */
  static final String LAUNCH_FAILED_HELD = "launch failed requeued held";

  private NodeProblems() {}

  static List<Command> commands(JobFinishedRequest req, int slurmUid) {
    List<Command> out = new ArrayList<>();
    String node = req.getNodeName();
    long t = req.getEndTime();
    if (req.getPrologFailed()) {
      out.add(drain(node, t, NodeReasons.PROLOG_ERROR, slurmUid));
      out.add(new Command.RequeueJob(req.getJobId(), t, true, false, LAUNCH_FAILED_HELD));
      out.add(new Command.JobEnded(req.getJobId(), t, 0, node));
      return out;
    }
    if (req.getEpilogFailed()) {
      out.add(drain(node, t, NodeReasons.EPILOG_ERROR, slurmUid));
    }
    if (req.getKillFailed()) {
      out.add(drain(node, t, NodeReasons.KILL_TASK_FAILED, slurmUid));
    }
    out.add(req.getLaunchFailed()
        ? new Command.LaunchFailed(req.getJobId(), t, req.getMessage())
        : new Command.JobEnded(req.getJobId(), t, req.getExitStatus(), node, req.getOutOfMemory(),
            req.hasUsage() ? req.getUsage() : null));
    return out;
  }

  private static Command drain(String node, long time, String reason, int uid) {
    return new Command.UpdateNode(node, time, NodeAction.DRAIN, reason, uid, true);
  }
}

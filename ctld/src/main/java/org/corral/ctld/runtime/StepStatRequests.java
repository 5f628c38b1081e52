package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.StepUsages;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepStatReply;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.protocol.msg.StepUsage;

/**
 * sstat's question: the live usage of a running job's steps, gathered from the job's nodes and
 * combined per step. Only the job's owner and administrators may ask; anyone else gets "Invalid
 * user id" as from Slurm, with the job's nodes in the message (sstat names them).
 */
final class StepStatRequests {
  private final NodeAgent agent;
  private final Authorizer auth;

  StepStatRequests(NodeAgent agent, Authorizer auth) {
    this.agent = agent;
    this.auth = auth;
  }

  StepStatReply stat(Peer peer, StepStatRequest req, ClusterState s) {
    JobRecord rec = s.job(req.getJobId()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    JobInfo job = rec.getInfo();
    StepStatReply.Builder reply = StepStatReply.newBuilder().setJobUserId(job.getUserId());
    // PrivateData=jobs: another's job is one not running, as Slurm 22.05 answers ("not found running")
    if (job.getState() != JobState.RUNNING || job.getCompleting() || !auth.maySeeJob(peer, job)) {
      return reply.build();
    }
    if (!auth.mayActOnJob(peer, job)) {
      throw new SlurmException(SlurmError.USER_ID_MISSING, job.getNodes());
    }
    reply.setJobRunning(true);
    Map<String, List<StepUsage>> byStep = new LinkedHashMap<>();
    for (NodeAllocation a : job.getAllocationList()) {
      s.node(a.getNode()).flatMap(node -> agent.stepStat(node, req)).ifPresent(r -> {
        for (StepUsage u : r.getStepsList()) {
          byStep.computeIfAbsent(u.getStep(), k -> new ArrayList<>()).add(u);
        }
      });
    }
    byStep.values().forEach(parts -> reply.addSteps(StepUsages.combine(parts)));
    return reply.build();
  }
}

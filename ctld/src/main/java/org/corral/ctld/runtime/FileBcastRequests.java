package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.corral.common.SlurmError;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.Peer;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.FileBcastError;
import org.corral.protocol.msg.FileBcastReply;
import org.corral.protocol.msg.FileBcastRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.StepRecord;

/**
 * sbcast's blocks: checked as Slurm checks the sbcast credential it hands out (the job exists,
 * runs, and belongs to the sender unless an operator or administrator sends), then forwarded to
 * every node of the job (or of the step named) at once, with the job's user and group: the node
 * daemons write the file with that user's rights. Each node's failure comes back with its name.
 */
final class FileBcastRequests {
  private final NodeAgent agent;
  private final Authorizer auth;

  FileBcastRequests(NodeAgent agent, Authorizer auth) {
    this.agent = agent;
    this.auth = auth;
  }

  FileBcastReply forward(Peer peer, FileBcastRequest block, ClusterState s) {
    JobRecord rec = s.job(block.getJobId()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    JobInfo job = rec.getInfo();
    if (job.getState() == JobState.PENDING) {
      throw new SlurmException(SlurmError.JOB_PENDING);
    }
    if (job.getState() != JobState.RUNNING || job.getCompleting()) {
      throw new SlurmException(SlurmError.ALREADY_DONE);
    }
    if (!auth.mayActOnJob(peer, job)) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    List<NodeInfo> nodes = new ArrayList<>();
    for (String name : nodeNames(rec, block.getStep())) {
      s.node(name).ifPresent(nodes::add);
    }
    FileBcastRequest order = block.toBuilder().setUid(job.getUserId()).setGid(job.getGroupId()).build();
    FileBcastReply.Builder reply = FileBcastReply.newBuilder();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<List<FileBcastError>>> answers = new ArrayList<>();
      for (NodeInfo node : nodes) {
        answers.add(pool.submit(() -> agent.fileBcast(node, order)));
      }
      for (Future<List<FileBcastError>> answer : answers) {
        reply.addAllErrors(answer.get());
      }
    } catch (ExecutionException e) {
      throw new SlurmException(SlurmError.UNEXPECTED, String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SlurmException(SlurmError.UNEXPECTED, "interrupted");
    }
    return reply.build();
  }

  /** The job's nodes, the batch host for "batch", or a running step's nodes. */
  private static List<String> nodeNames(JobRecord rec, String step) {
    List<String> all = rec.getInfo().getAllocationList().stream().map(NodeAllocation::getNode).toList();
    if (step.isEmpty()) {
      return all;
    }
    int id;
    try {
      id = StepIds.parse(step);
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_JOB_ID);
    }
    if (id == StepIds.BATCH && !rec.getInfo().getInteractive() && !all.isEmpty()) {
      return all.subList(0, 1);
    }
    for (StepRecord st : rec.getStepsList()) {
      if (st.getInfo().getStepId() == id && st.getInfo().getState() == JobState.RUNNING) {
        return st.getInfo().getNodeNamesList();
      }
    }
    throw new SlurmException(SlurmError.INVALID_JOB_ID);
  }
}

package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.SuspendJobsRequest;
import org.corral.protocol.msg.TopJobsRequest;

/**
 * {@code scontrol suspend|resume} (operators and administrators only, as in Slurm) and
 * {@code scontrol top} (operators, or a job's owner with SchedulerParameters=enable_user_top).
 */
final class SuspendRequests {
  private final Authorizer auth;
  private final Clock clock;
  private final JobOrders orders;
  private final boolean enableUserTop;

  SuspendRequests(Authorizer auth, Clock clock, JobOrders orders, String schedulerParameters) {
    this.auth = auth;
    this.clock = clock;
    this.orders = orders;
    this.enableUserTop = List.of(schedulerParameters.split(",")).contains("enable_user_top");
  }

  Decision<JobResultsReply> suspend(Peer peer, SuspendJobsRequest req, ClusterState s) {
    long now = clock.instant().getEpochSecond();
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    JobResultsReply.Builder reply = JobResultsReply.newBuilder();
    for (int id : req.getJobIdsList()) {
      JobRecord r = s.jobs().get(id);
      SlurmError err = r == null ? SlurmError.INVALID_MESSAGE : refusal(peer, r.getInfo(), req.getResume());
      if (err == SlurmError.SUCCESS && wouldChange(r.getInfo(), req.getResume())) {
        Command c = new Command.SuspendJob(id, now, req.getResume(), false);
        cmds.add(c);
        effects.addAll(orders.effects(r.getInfo(), c));
      }
      reply.addResults(JobRequests.result(id, err));
    }
    return new Decision<>(cmds, reply.build(), effects);
  }

  /**
   * Slurm 22.05's answers: an unknown job is an "Unexpected message", a pending one "pending
   * execution"; suspending a suspended job succeeds, resuming a running one does not.
   */
  private SlurmError refusal(Peer peer, JobInfo j, boolean resume) {
    if (!auth.isAdmin(peer)) {
      return SlurmError.ACCESS_DENIED;
    }
    if (JobStates.isQueued(j)) {
      return SlurmError.JOB_PENDING;
    }
    if (JobStates.isFinished(j) || j.getCompleting()) {
      return SlurmError.ALREADY_DONE;
    }
    if (resume && j.getState() != JobState.SUSPENDED) {
      return SlurmError.JOB_NOT_SUSPENDED;
    }
    return SlurmError.SUCCESS;
  }

  /** A job waiting for its gang turn is suspended for good (out of the rotation) until resumed. */
  private static boolean wouldChange(JobInfo j, boolean resume) {
    return resume == (j.getState() == JobState.SUSPENDED) || !resume && j.getGangSuspended();
  }

  /**
   * {@code scontrol top}: the listed jobs, in order, take the highest priorities among their
   * owner's pending jobs of the same partition, account and QOS; the others keep their order
   * below. Done through Nice, as Slurm does, so the priorities the set had are only handed
   * around (the user's throughput is unchanged).
   */
  Decision<JobResultsReply> top(Peer peer, TopJobsRequest req, ClusterState s) {
    long now = clock.instant().getEpochSecond();
    JobResultsReply.Builder reply = JobResultsReply.newBuilder();
    List<JobInfo> listed = new ArrayList<>();
    for (int id : req.getJobIdsList()) {
      JobRecord r = s.jobs().get(id);
      SlurmError err = r == null ? SlurmError.INVALID_JOB_ID : topRefusal(peer, r.getInfo());
      if (err == SlurmError.SUCCESS) {
        listed.add(r.getInfo());
      } else {
        reply.addResults(JobRequests.result(id, err));
      }
    }
    List<Command> cmds = new ArrayList<>();
    if (!listed.isEmpty()) {
      JobInfo first = listed.get(0);
      listed.removeIf(j -> !sameSet(first, j)); // only jobs of one partition, user, account and QOS
      cmds.addAll(TopOrder.niceChanges(listed, peers(first, s), now));
    }
    return new Decision<>(cmds, reply.build(), List.of());
  }

  private SlurmError topRefusal(Peer peer, JobInfo j) {
    if (!auth.isAdmin(peer) && !(enableUserTop && peer.uid() == j.getUserId())) {
      return SlurmError.ACCESS_DENIED;
    }
    if (!JobStates.isPending(j)) {
      return SlurmError.JOB_NOT_PENDING;
    }
    if (j.getPriority() == 0) {
      return SlurmError.JOB_HELD;
    }
    return SlurmError.SUCCESS;
  }

  /** The pending, unheld jobs {@code top} reorders: the same user, partition, account and QOS. */
  private static List<JobInfo> peers(JobInfo like, ClusterState s) {
    List<JobInfo> out = new ArrayList<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (JobStates.isPending(j) && j.getPriority() != 0 && sameSet(like, j)) {
        out.add(j);
      }
    }
    out.sort(Comparator.comparingLong((JobInfo j) -> -Integer.toUnsignedLong(j.getPriority()))
        .thenComparingInt(JobInfo::getJobId));
    return out;
  }

  private static boolean sameSet(JobInfo a, JobInfo b) {
    return a.getUserId() == b.getUserId() && a.getPartition().equals(b.getPartition())
        && a.getAccount().equals(b.getAccount()) && a.getQos().equals(b.getQos());
  }
}

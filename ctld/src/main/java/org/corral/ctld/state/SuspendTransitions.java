package org.corral.ctld.state;

import java.util.HashMap;
import java.util.Map;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * Suspension and preemption of running jobs. A suspended job gives its CPUs back (others may
 * use them) but keeps its memory, as Slurm's cons_tres does; its time limit stops counting:
 * SecsPreSuspend keeps what it ran before, and resuming moves its end by the time it stood still.
 * A job the gang scheduler suspends waits for its turn on CPUs that stay allocated to it.
 */
final class SuspendTransitions {
  private SuspendTransitions() {}

  static ClusterState suspend(ClusterState s, Command.SuspendJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || rec.getInfo().getCompleting()) {
      return s;
    }
    JobInfo j = rec.getInfo();
    JobInfo next;
    int sign; // CPUs given back (-1) or taken again (+1); a gang turn leaves them allocated (0)
    if (!c.resume() && j.getState() == JobState.RUNNING) {
      boolean thisRun = j.getSuspendTime() >= j.getStartTime(); // not from a run before a requeue
      long ranSince = thisRun ? j.getSuspendTime() : j.getStartTime();
      next = j.toBuilder().setState(JobState.SUSPENDED)
          .setPreSuspendSecs((thisRun ? j.getPreSuspendSecs() : 0) + Math.max(0, c.time() - ranSince))
          .setSuspendTime(c.time()).setPreemptSuspended(c.byPreemption()).setGangSuspended(c.byGang()).build();
      sign = c.byGang() ? 0 : -1;
    } else if (!c.resume() && !c.byGang() && j.getGangSuspended()) {
      // waiting for its turn, now suspended for good (preemption, scontrol): its CPUs are free
      next = j.toBuilder().setGangSuspended(false).setPreemptSuspended(c.byPreemption()).build();
      sign = -1;
    } else if (c.resume() && j.getState() == JobState.SUSPENDED && (!c.byGang() || j.getGangSuspended())) {
      next = resumed(j, c.time());
      sign = j.getGangSuspended() ? 0 : +1;
    } else {
      return s;
    }
    ClusterState out = sign == 0 ? s : s.withNodes(s.nodes().plusAll(cpus(s, j, sign)), c.time());
    return out.withJobs(out.jobs().plus(c.jobId(), StateMachine.with(rec, next)), c.time());
  }

  /** Running again: its end moves by the time it was stopped. */
  private static JobInfo resumed(JobInfo j, long time) {
    long stopped = Math.max(0, time - j.getSuspendTime());
    return j.toBuilder().setState(JobState.RUNNING).setSuspendTime(time).setPreemptSuspended(false)
        .setGangSuspended(false)
        .setEndTime(j.getEndTime() == 0 ? 0 : j.getEndTime() + stopped)
        .setSuspendedSecs(j.getSuspendedSecs() + stopped).build();
  }

  /**
   * A suspended job about to end (cancelled, preempted, requeued, gone): it runs again first, so
   * that its end gives back the CPUs it holds again, as every running job's end does.
   */
  static ClusterState wake(ClusterState s, int jobId, long time) {
    JobRecord rec = s.jobs().get(jobId);
    if (rec == null || rec.getInfo().getState() != JobState.SUSPENDED) {
      return s;
    }
    return suspend(s, new Command.SuspendJob(jobId, time, true, false));
  }

  /** The job's CPUs given back (sign -1) or taken again (+1) on each of its nodes. */
  private static Map<String, NodeInfo> cpus(ClusterState s, JobInfo j, int sign) {
    Map<String, NodeInfo> changed = new HashMap<>();
    for (NodeAllocation a : j.getAllocationList()) {
      NodeInfo n = changed.getOrDefault(a.getNode(), s.nodes().get(a.getNode()));
      if (n != null) {
        changed.put(a.getNode(), n.toBuilder().setAllocCpus(Math.max(0, n.getAllocCpus() + sign * a.getCpus())).build());
      }
    }
    return changed;
  }

  /**
   * Preemption: within a GraceTime the job keeps running until {@code graceEnd} (its new end);
   * then, or at once without one, CANCEL ends it PREEMPTED and REQUEUE puts it back in the queue
   * (a job that may not be requeued is cancelled instead, as Slurm does).
   */
  static ClusterState preempt(ClusterState s, Command.PreemptJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || rec.getInfo().getCompleting()
        || (rec.getInfo().getState() != JobState.RUNNING && rec.getInfo().getState() != JobState.SUSPENDED)) {
      return s;
    }
    JobInfo j = rec.getInfo();
    if (c.graceEnd() > c.time()) {
      if (!j.getPreempting().isEmpty()) {
        return s;
      }
      JobInfo next = j.toBuilder().setPreempting(c.action()).setEndTime(c.graceEnd()).build();
      return s.withJobs(s.jobs().plus(c.jobId(), StateMachine.with(rec, next)), c.time());
    }
    ClusterState awake = wake(s, c.jobId(), c.time());
    JobRecord cleared = StateMachine.with(awake.jobs().get(c.jobId()),
        awake.jobs().get(c.jobId()).getInfo().toBuilder().setPreempting("").build());
    awake = awake.withJobs(awake.jobs().plus(c.jobId(), cleared), c.time());
    if (c.action().equals("REQUEUE") && j.getRequeue() && !rec.getSpec().getInteractive()) {
      return StateMachine.change(awake, new Command.RequeueJob(c.jobId(), c.time(), false, false, ""));
    }
    return StateMachine.endEarly(awake, c.jobId(), c.time(), JobState.PREEMPTED);
  }
}

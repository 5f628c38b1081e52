package org.corral.ctld.state;

import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.StepUsage;

/**
 * Every change to the controller's state is one of these. Each carries everything
 * {@link StateMachine#apply} needs (times, ids), chosen before it is logged, so replaying the
 * journal through the same apply rebuilds the same state.
 */
public sealed interface Command {

  /** Durable commands go to the journal; the others are derived again after a restart. */
  default boolean durable() {
    return true;
  }

  /** Whether the change may let a job start (so the scheduler should run again). */
  default boolean changesSchedulingInput() {
    return true;
  }

  record SubmitJob(int jobId, long time, int userId, String userName, int groupId,
      String groupName, JobSpec spec) implements Command {}

  /**
   * A job starts on its allocation. For an array's record, {@code arrayTask} names the task that
   * starts (the plan's form; the writer turns it into {@link StartArrayTask}); -1 otherwise.
   * {@code reservation}: the MAGNETIC reservation a job that named none runs in ("": none).
   */
  record StartJob(int jobId, long time, List<NodeAllocation> allocation, int arrayTask, String reservation)
      implements Command {
    public StartJob(int jobId, long time, List<NodeAllocation> allocation, int arrayTask) {
      this(jobId, time, allocation, arrayTask, "");
    }

    public StartJob(int jobId, long time, List<NodeAllocation> allocation) {
      this(jobId, time, allocation, -1);
    }
  }

  /**
   * Task {@code taskId} of array {@code arrayJobId} starts as job {@code jobId}: a new record
   * split off the array's, or the array's own record when it is the last task.
   */
  record StartArrayTask(int arrayJobId, int taskId, int jobId, long time, List<NodeAllocation> allocation)
      implements Command {}

  /**
   * @param outOfMemory the node saw the kernel's OOM killer strike in the job's cgroup
   * @param usage the batch step's usage as the node measured it, or null
   */
  record JobEnded(int jobId, long time, int exitStatus, String node, boolean outOfMemory, StepUsage usage)
      implements Command {
    public JobEnded(int jobId, long time, int exitStatus, String node, boolean outOfMemory) {
      this(jobId, time, exitStatus, node, outOfMemory, null);
    }

    public JobEnded(int jobId, long time, int exitStatus, String node) {
      this(jobId, time, exitStatus, node, false, null);
    }
  }

  record CancelJob(int jobId, long time, int byUid) implements Command {}

  record HoldJob(int jobId, boolean release, boolean userHold) implements Command {}

  record TimeoutJob(int jobId, long time) implements Command {}

  record LaunchFailed(int jobId, long time, String message) implements Command {}

  record PurgeJob(int jobId) implements Command {}

  /**
   * {@code scontrol update JobId=}: {@code changes} maps priority, nice, timelimit (minutes),
   * jobname, comment, dependency or starttime (epoch seconds) to the new value.
   */
  record UpdateJob(int jobId, long time, Map<String, String> changes) implements Command {}

  /** A pending job can no longer end before its --deadline: it ends DEADLINE (Reason=DeadLine). */
  record DeadlineJob(int jobId, long time) implements Command {}

  /** A pending task of an array is cancelled: it leaves the array's pending tasks. */
  record CancelArrayTask(int arrayJobId, int taskId, long time, int byUid) implements Command {}

  /** slurmdbd stored every accounting event up to {@code through}: they leave the outbox. */
  record AcctShipped(long through) implements Command {
    @Override
    public boolean changesSchedulingInput() {
      return false;
    }
  }

  /** A job id spent without a job (sbatch --test-only takes one, as Slurm's does). */
  record JobIdUsed(int jobId) implements Command {
    @Override
    public boolean changesSchedulingInput() {
      return false;
    }
  }

  record NodeRegistered(String node, long time, int cpus, long realMemoryMb, long bootTime,
      long slurmdStartTime, String version, String os, String arch) implements Command {}

  record NodeDown(String node, long time, String reason) implements Command {}

  /** The generic resources a node reported at registration (gres.conf, or Gres= where it has none). */
  record NodeGres(String node, long time, List<org.corral.protocol.msg.GresSlot> slots) implements Command {
    public NodeGres {
      slots = List.copyOf(slots);
    }
  }

  /**
   * A node's drain or down state changes: {@code scontrol update}, a failed Prolog or Epilog, an
   * unkillable job. {@code setReason} false keeps the node's reason (a state change without
   * Reason=); {@code byUid} is who the reason is attributed to.
   */
  record UpdateNode(String node, long time, NodeAction action, String reason, int byUid,
      boolean setReason, NodeSettings settings) implements Command {
    public UpdateNode(String node, long time, NodeAction action, String reason, int byUid, boolean setReason) {
      this(node, time, action, reason, byUid, setReason, NodeSettings.KEEP);
    }
  }

  /**
   * What {@code scontrol update NodeName= Features= ActiveFeatures= Weight=} sets besides the
   * state: each null (weight -1) is kept as it is.
   */
  record NodeSettings(List<String> features, List<String> activeFeatures, long weight) {
    public static final NodeSettings KEEP = new NodeSettings(null, null, -1);

    public NodeSettings {
      features = features == null ? null : List.copyOf(features);
      activeFeatures = activeFeatures == null ? null : List.copyOf(activeFeatures);
    }
  }

  /**
   * A job goes back to the queue: {@code scontrol requeue[hold]}, a failed Prolog. A running job
   * first completes (its processes are killed); it pends again once its node reports the end.
   * {@code heldReason} is the reason shown while held (empty when not held); {@code specialExit}
   * leaves the job in SPECIAL_EXIT (held) rather than PENDING.
   */
  record RequeueJob(int jobId, long time, boolean hold, boolean userHold, String heldReason,
      boolean specialExit) implements Command {
    /** A requeue into PENDING. */
    public RequeueJob(int jobId, long time, boolean hold, boolean userHold, String heldReason) {
      this(jobId, time, hold, userHold, heldReason, false);
    }
  }

  /**
   * The batch script ended on {@code node} and the node's Epilog runs: the job takes its end
   * state but keeps its resources (COMPLETING) until {@link JobEnded}.
   */
  record JobEnding(int jobId, long time, int exitStatus, String node) implements Command {}

  /**
   * The nodes (other than the batch host) whose Epilog still runs for an ended job: they stay
   * the job's (COMPLETING) until the list is empty. Logged with the job's end and as each
   * node reports.
   */
  record EpilogNodes(int jobId, List<String> nodes, long time) implements Command {}

  /**
   * {@code scontrol suspend|resume}, or preemption (SUSPEND mode) and the resumption that follows
   * it: the job stops (SUSPENDED, its CPUs free, its memory kept) or runs again, its end moved
   * by the time it was stopped. {@code byGang}: a gang scheduler's turn (time-slicing), which
   * leaves the job's CPUs allocated to it while it waits.
   */
  record SuspendJob(int jobId, long time, boolean resume, boolean byPreemption, boolean byGang) implements Command {
    public SuspendJob(int jobId, long time, boolean resume, boolean byPreemption) {
      this(jobId, time, resume, byPreemption, false);
    }
  }

  /**
   * The job is preempted with {@code action} CANCEL (it ends PREEMPTED) or REQUEUE (back to the
   * queue; a job that may not be requeued is cancelled). With a GraceTime it keeps running until
   * {@code graceEnd}, when the controller logs the preemption again without one.
   */
  record PreemptJob(int jobId, long time, String action, long graceEnd) implements Command {}

  /** sbatch --signal's warning signal was sent to the job (once per run). */
  record WarnSignalSent(int jobId) implements Command {}
  /** srun created a step; its placement and I/O key were chosen before it was logged. */
  record StepCreated(org.corral.protocol.msg.StepRecord step, long time) implements Command {}

  /** One node of a step reports its tasks there have ended, with their usage there (or null). */
  record StepNodeDone(int jobId, int stepId, String node, int exitStatus, long time, StepUsage usage)
      implements Command {
    public StepNodeDone(int jobId, int stepId, String node, int exitStatus, long time) {
      this(jobId, stepId, node, exitStatus, time, null);
    }
  }

  record StepCancelled(int jobId, int stepId, long time) implements Command {}

  /** scontrol create reservation: a new reservation (it counts for the USER_N names). */
  record CreateReservation(org.corral.protocol.msg.ReservationInfo reservation, long time) implements Command {}

  /** A reservation changed: scontrol update, or a DAILY/WEEKLY one rolled forward after its end. */
  record UpdateReservation(org.corral.protocol.msg.ReservationInfo reservation, long time) implements Command {}

  /** A reservation is gone: scontrol delete, or it ended. */
  record DeleteReservation(String name, long time) implements Command {}

  // ---- transient: recomputed after a restart, never journaled

  /** A node answered (heartbeat): only its last-heard time and load change. */
  record NodeHeard(String node, long time, int cpuLoad, long freeMemMb) implements Command {
    @Override
    public boolean durable() {
      return false;
    }

    @Override
    public boolean changesSchedulingInput() {
      return false;
    }
  }

  /**
   * The scheduler's verdict on each pending job: why it waits and, when backfill planned it,
   * its expected start and nodes.
   */
  record SetPendingStatus(Map<Integer, Waiting> waiting, long time)
      implements Command {
    @Override
    public boolean durable() {
      return false;
    }

    @Override
    public boolean changesSchedulingInput() {
      return false;
    }
  }

  /** Priorities (and their factors) recalculated by priority/multifactor. */
  record SetPriorities(Map<Integer, JobPriority> priorities) implements Command {
    @Override
    public boolean durable() {
      return false;
    }

    @Override
    public boolean changesSchedulingInput() {
      return false;
    }
  }

  /** A job's priority and the factors it came from. */
  record JobPriority(int priority, org.corral.protocol.msg.PriorityFactors factors) {}

  /**
   * The partition table as a whole, after {@code scontrol create|update|delete partition} or a
   * reconfigure; each node's partitions follow from it. Journaled: {@code slurmctld -R} restores it.
   */
  record SetPartitions(List<PartitionInfo> partitions, long time) implements Command {
    public SetPartitions {
      partitions = List.copyOf(partitions);
    }
  }

  /**
   * The configuration read at start-up (slurm.conf): node and partition definitions. Nodes keep
   * their recovered state; new ones start UNKNOWN, removed ones go.
   */
  record LoadConfig(List<NodeInfo> nodes, List<PartitionInfo> partitions, long time)
      implements Command {
    @Override
    public boolean durable() {
      return false;
    }
  }
}

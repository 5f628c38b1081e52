package org.corral.ctld.state;

import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/** Questions about a job's state that several parts of the controller ask. */
public final class JobStates {
  private JobStates() {}

  public static boolean isPending(JobInfo j) {
    return j.getState() == JobState.PENDING;
  }

  /** Whether the job holds resources on its nodes: running, suspended or still completing. */
  public static boolean holdsResources(JobInfo j) {
    return j.getState() == JobState.RUNNING || j.getState() == JobState.SUSPENDED
        || j.getCompleting();
  }

  /**
   * Whether the scheduler may start it: pending, not held, and not still completing an earlier
   * run (a requeued job pends while its processes are being killed).
   */
  public static boolean isSchedulable(JobInfo j) {
    return j.getState() == JobState.PENDING && !j.getCompleting();
  }

  /** Whether it waits in the queue: pending, or held in SPECIAL_EXIT after a requeue. */
  public static boolean isQueued(JobInfo j) {
    return j.getState() == JobState.PENDING || j.getState() == JobState.SPECIAL_EXIT;
  }

  /** Whether scontrol hold/uhold/release take it: queued, or running (it runs on, held), not completing. */
  public static boolean isHoldable(JobInfo j) {
    return (isQueued(j) || j.getState() == JobState.RUNNING) && !j.getCompleting();
  }

  /** Whether the job has ended (it may still be completing). */
  public static boolean isFinished(JobInfo j) {
    return switch (j.getState()) {
      case PENDING, RUNNING, SUSPENDED, SPECIAL_EXIT, UNRECOGNIZED -> false;
      default -> true;
    };
  }
}

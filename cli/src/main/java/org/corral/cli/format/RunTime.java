package org.corral.cli.format;

import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/**
 * How long a job has run (squeue TIME, scontrol RunTime): time suspended does not count. Slurm
 * keeps SecsPreSuspend, what the job ran before its last suspension or resumption, and
 * SuspendTime, when that was.
 */
public final class RunTime {
  private RunTime() {}

  public static long seconds(JobInfo j, long now) {
    if (j.getStartTime() <= 0 || j.getState() == JobState.PENDING) {
      return 0;
    }
    long before = secsPreSuspend(j);
    if (j.getState() == JobState.SUSPENDED) {
      return before;
    }
    long end = j.getState() == JobState.RUNNING || j.getEndTime() <= 0 ? now : j.getEndTime();
    long from = before > 0 || suspendedThisRun(j) ? j.getSuspendTime() : j.getStartTime();
    return Math.max(0, before + end - from);
  }

  /** SecsPreSuspend of the job's current run (0 when it was never suspended in it). */
  public static long secsPreSuspend(JobInfo j) {
    return suspendedThisRun(j) ? j.getPreSuspendSecs() : 0;
  }

  private static boolean suspendedThisRun(JobInfo j) {
    return j.getSuspendTime() > 0 && j.getSuspendTime() >= j.getStartTime();
  }
}

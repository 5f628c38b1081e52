package org.corral.cli.format;

import org.corral.protocol.msg.JobInfo;

/** A job's id as Slurm's commands show it to users. */
public final class JobIds {
  private JobIds() {}

  /** An array's pending record as 33_[2-9%2], a started task as 33_0, any other job by its id. */
  public static String arrayAware(JobInfo j) {
    if (j.getArrayJobId() == 0) {
      return Integer.toUnsignedString(j.getJobId());
    }
    String array = Integer.toUnsignedString(j.getArrayJobId());
    return !j.getArrayTasks().isEmpty() ? array + "_[" + j.getArrayTasks() + "]"
        : array + "_" + Integer.toUnsignedString(j.getArrayTaskId());
  }
}

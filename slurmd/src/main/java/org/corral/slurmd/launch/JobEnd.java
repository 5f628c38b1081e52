package org.corral.slurmd.launch;

/** How a job ended, as reported to the {@link JobListener}. */
public record JobEnd(int exitStatus, long endTimeEpochSec, boolean launchFailed, String message, boolean outOfMemory) {
  public JobEnd(int exitStatus, long endTimeEpochSec, boolean launchFailed, String message) {
    this(exitStatus, endTimeEpochSec, launchFailed, message, false);
  }

  static JobEnd failed(int exitStatus, long endTimeEpochSec, String message) {
    return new JobEnd(exitStatus, endTimeEpochSec, true, message);
  }

  JobEnd withOutOfMemory(boolean oom) {
    return new JobEnd(exitStatus, endTimeEpochSec, launchFailed, message, oom);
  }
}

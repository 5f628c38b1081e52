package org.corral.slurmd.launch;

/** How a job ended, as reported to the {@link JobListener}. */
public record JobEnd(int exitStatus, long endTimeEpochSec, boolean launchFailed, String message) {
  static JobEnd failed(int exitStatus, long endTimeEpochSec, String message) {
    return new JobEnd(exitStatus, endTimeEpochSec, true, message);
  }
}

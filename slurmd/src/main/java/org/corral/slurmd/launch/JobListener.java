package org.corral.slurmd.launch;

/** Told once per job, from any thread, when the job has ended. */
public interface JobListener {
  /**
   * @param exitStatus wait(2)-style: exit code {@code << 8}, or the signal in the low byte
   * @param launchFailed the job never ran (its environment could not be set up)
   */
  void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed, String message);
}

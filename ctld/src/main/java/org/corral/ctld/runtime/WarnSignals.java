package org.corral.ctld.runtime;

import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;

/**
 * sbatch {@code --signal=[{R|B}:]SIG[@TIME]}: SIG goes to the job TIME seconds before its time
 * limit, once per run. With B: only the batch shell gets it; otherwise, as in Slurm, the job's
 * steps and not the batch shell.
 */
final class WarnSignals {
  private WarnSignals() {}

  static boolean due(JobRecord r, long now) {
    JobInfo j = r.getInfo();
    JobSpec spec = r.getSpec();
    return j.getState() == JobState.RUNNING && !j.getCompleting() && spec.getWarnSignal() > 0
        && !j.getWarnSignalSent() && j.getEndTime() > 0
        && j.getEndTime() - spec.getWarnTimeS() <= now;
  }
}

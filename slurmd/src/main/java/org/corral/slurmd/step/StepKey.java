package org.corral.slurmd.step;

import org.corral.protocol.StepIds;

/** A step of a job, as Slurm writes it: JOB.STEP. */
record StepKey(int jobId, int stepId) {
  @Override
  public String toString() {
    return Integer.toUnsignedString(jobId) + "." + StepIds.name(stepId);
  }
}

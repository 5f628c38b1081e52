package org.corral.ctld.steps;

import org.corral.common.SlurmError;

/** Why a step cannot have what it asks for now (generic resources, reserved ports), as Slurm's error. */
public final class StepUnavailable extends Exception {
  private final SlurmError error;

  StepUnavailable(SlurmError error) {
    super(error.message(), null, false, false);
    this.error = error;
  }

  public SlurmError error() {
    return error;
  }
}

package org.corral.protocol.plugin;

import org.corral.common.SlurmError;

/**
 * A submit filter's refusal: the error the submission fails with (shown as "Batch job submission
 * failed: ERROR'S TEXT") and a message for the user shown before it ("sbatch: error: MESSAGE"),
 * as Slurm's job_submit plugins do with their error code and user message. An empty message adds
 * no line.
 */
public final class SubmitRefusal extends Exception {
  private static final long serialVersionUID = 1L;
  private final transient SlurmError error;

  public SubmitRefusal(SlurmError error, String userMessage) {
    super(userMessage == null ? "" : userMessage);
    this.error = error;
  }

  public SlurmError error() {
    return error;
  }
}

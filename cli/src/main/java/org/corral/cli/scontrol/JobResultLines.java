package org.corral.cli.scontrol;

import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.JobResultsReply;

/** Per-job refusals as Slurm 22.05's scontrol prints them: "TEXT for job N". */
final class JobResultLines {
  private JobResultLines() {}

  /** Prints each refusal; 1 when there was any, else 0. */
  static int print(Cli cli, JobResultsReply reply) {
    int rc = 0;
    for (JobResult res : reply.getResultsList()) {
      if (res.getErrorCode() != 0) {
        cli.err().println(SlurmError.messageFor(res.getErrorCode()) + " for job "
            + Integer.toUnsignedString(res.getJobId()));
        rc = 1;
      }
    }
    return rc;
  }
}

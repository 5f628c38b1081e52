package org.corral.cli.sbatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.format.JobStates;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * sbatch --wait: asks the controller about the job until it (every task of an array) has ended
 * and left COMPLETING, then returns what Slurm's sbatch exits with: the job's exit code when it
 * exited, 1 when a signal ended it (cancelled while running, killed, timed out); a job cancelled
 * before it ran has exit code 0. An array gives the highest of its tasks'. The controller being
 * away is waited out, as Slurm's sbatch does.
 */
final class JobWaiter {
  private static final long FIRST_PAUSE_MILLIS = 250;
  private static final long LONGEST_PAUSE_MILLIS = 2000;

  /** How the waiter pauses between two questions (tests pass one that does not). */
  interface Pause {
    void sleep(long millis) throws InterruptedException;
  }

  private JobWaiter() {}

  static int await(int jobId, Cli cli, Pause pause) {
    long wait = FIRST_PAUSE_MILLIS;
    while (true) {
      List<JobInfo> jobs = ask(jobId, cli);
      if (jobs != null && jobs.stream().noneMatch(JobStates::isActive)) {
        return jobs.stream().mapToInt(j -> exitCode(j.getExitStatus())).max().orElse(0);
      }
      try {
        pause.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }
      wait = Math.min(LONGEST_PAUSE_MILLIS, wait * 2);
    }
  }

  /** The job's records; an empty list once the controller has forgotten it; null when it cannot be asked. */
  private static List<JobInfo> ask(int jobId, Cli cli) {
    try {
      Response r = cli.controller().get().call(Request.newBuilder()
          .setJobInfo(JobInfoRequest.newBuilder().addJobIds(jobId)).build());
      if (r.getErrorCode() == SlurmError.INVALID_JOB_ID.code()) {
        return List.of();
      }
      return r.getErrorCode() == 0 ? r.getJobInfo().getJobsList() : null;
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }

  /** A wait(2) status as the shell's exit status Slurm's sbatch gives: the code, or 1 for a signal. */
  static int exitCode(int waitStatus) {
    return (waitStatus & 0x7f) == 0 ? (waitStatus >> 8) & 0xff : 1;
  }
}

package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SuspendJobsRequest;
import org.corral.protocol.msg.TopJobsRequest;

/**
 * {@code scontrol suspend|resume JOBID[,JOBID...]} and {@code scontrol top JOBID[,JOBID...]}:
 * silent on success; each refusal as Slurm 22.05 prints it ("TEXT for job N"), exit 1 on any.
 */
final class SuspendCommand {
  private SuspendCommand() {}

  static int run(String keyword, List<String> words, Cli cli) {
    List<String> ids = new ArrayList<>();
    words.forEach(w -> ids.addAll(List.of(w.split(","))));
    if (ids.isEmpty()) {
      cli.err().println("too few arguments for keyword:" + keyword);
      return 1;
    }
    List<Integer> jobIds = new ArrayList<>();
    for (String id : ids) {
      String v = id.toLowerCase(Locale.ROOT).startsWith("jobid=") ? id.substring(6) : id;
      try {
        jobIds.add(Integer.parseUnsignedInt(v));
      } catch (NumberFormatException e) {
        cli.err().println(SlurmError.INVALID_JOB_ID.message() + " for job " + id);
        return 1; // Slurm stops at the first word that is not a job id
      }
    }
    Request req = keyword.equals("top")
        ? Request.newBuilder().setTopJobs(TopJobsRequest.newBuilder().addAllJobIds(jobIds)).build()
        : Request.newBuilder().setSuspendJobs(SuspendJobsRequest.newBuilder().addAllJobIds(jobIds)
            .setResume(keyword.equals("resume"))).build();
    Response r;
    try {
      r = cli.controller().get().call(req);
    } catch (IOException e) {
      jobIds.forEach(id -> cli.err().println(SlurmError.CONTROLLER_DOWN.message() + " for job "
          + Integer.toUnsignedString(id)));
      return 1;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println("slurm_" + keyword + " error: " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    return JobResultLines.print(cli, r.getJobResults());
  }
}

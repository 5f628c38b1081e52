package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.RequeueJobsRequest;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol requeue JOBID[,JOBID...]} and {@code scontrol requeuehold [State=SpecialExit]
 * JOBID...}: errors reported per job as Slurm 22.05 does ("TEXT for job N"), exit 1 on any.
 */
final class RequeueCommand {
  private RequeueCommand() {}

  static int run(String keyword, boolean hold, List<String> words, Cli cli) {
    RequeueJobsRequest.Builder req = RequeueJobsRequest.newBuilder().setHold(hold);
    List<String> ids = new ArrayList<>();
    for (String w : words) {
      String lower = w.toLowerCase(Locale.ROOT);
      if (hold && lower.startsWith("state=")) {
        if (!lower.equals("state=specialexit")) {
          cli.err().println("Invalid state specification: " + w.substring(6));
          return 1;
        }
        req.setSpecialExit(true);
        continue;
      }
      ids.addAll(List.of(w.split(",")));
    }
    if (ids.isEmpty()) {
      cli.err().println("too few arguments for keyword:" + keyword);
      return 1;
    }
    int rc = 0;
    for (String id : ids) {
      String v = id.toLowerCase(Locale.ROOT).startsWith("jobid=") ? id.substring(6) : id;
      try {
        req.addJobIds(Integer.parseUnsignedInt(v));
      } catch (NumberFormatException e) {
        cli.err().println(SlurmError.INVALID_JOB_ID.message() + " for job " + id);
        rc = 1;
      }
    }
    if (req.getJobIdsCount() == 0) {
      return rc;
    }
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder().setRequeueJobs(req).build());
    } catch (IOException e) {
      req.getJobIdsList().forEach(id -> cli.err().println(SlurmError.CONTROLLER_DOWN.message()
          + " for job " + Integer.toUnsignedString(id)));
      return 1;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println("slurm_requeue error: " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    return Math.max(rc, JobResultLines.print(cli, r.getJobResults()));
  }
}

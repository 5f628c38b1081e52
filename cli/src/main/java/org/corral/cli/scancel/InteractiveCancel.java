package org.corral.cli.scancel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.JobIds;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * scancel -i: asks "Cancel job_id=... name=... partition=... [y/n]? " on stdout for each job the
 * ids and filters name (the controller says which, so the filters mean what they mean without
 * -i), in job id order, and keeps the ones answered y. An id that names no live job is reported first, as
 * Slurm's does, and makes the exit status 1.
 */
final class InteractiveCancel {
  /** The jobs confirmed, and the exit status so far. */
  record Answer(List<Integer> confirmed, int status) {}

  private InteractiveCancel() {}

  static Answer ask(CancelJobsRequest.Builder request, Cli cli, InputStream stdin)
      throws IOException, ScancelFailure {
    Response named = cli.controller().get().call(Request.newBuilder()
        .setCancelJobs(request.setListOnly(true)).build());
    if (named.getErrorCode() != 0) {
      throw ScancelFailure.error(named.getErrorMessage().isEmpty()
          ? SlurmError.messageFor(named.getErrorCode()) : named.getErrorMessage());
    }
    int status = 0;
    List<Integer> candidates = new ArrayList<>();
    for (JobResult r : named.getJobResults().getResultsList()) {
      int code = r.getErrorCode();
      if (code == SlurmError.INVALID_JOB_ID.code() || code == SlurmError.ALREADY_DONE.code()) {
        cli.error("error: Kill job error on job id " + Integer.toUnsignedString(r.getJobId()) + ": "
            + SlurmError.INVALID_JOB_ID.message());
        status = 1;
      } else if (!candidates.contains(r.getJobId())) {
        candidates.add(r.getJobId());
      }
    }
    candidates.sort(Integer::compareUnsigned); // as the reference asks: by job id
    Map<Integer, JobInfo> jobs = records(candidates, cli);
    BufferedReader answers = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
    List<Integer> confirmed = new ArrayList<>();
    for (int id : candidates) {
      JobInfo j = jobs.get(id);
      if (j != null && confirm(j, cli, answers)) {
        confirmed.add(id);
      }
    }
    return new Answer(confirmed, status);
  }

  private static Map<Integer, JobInfo> records(List<Integer> ids, Cli cli) throws IOException {
    Map<Integer, JobInfo> out = new HashMap<>();
    if (ids.isEmpty()) {
      return out;
    }
    Response r = cli.controller().get().call(Request.newBuilder()
        .setJobInfo(JobInfoRequest.newBuilder().addAllJobIds(ids)).build());
    if (r.getErrorCode() == 0) {
      for (JobInfo j : r.getJobInfo().getJobsList()) {
        out.put(j.getJobId(), j);
      }
    }
    return out;
  }

  /** Asks until the answer starts with y or n; the end of stdin is a no (Slurm's would ask forever). */
  private static boolean confirm(JobInfo j, Cli cli, BufferedReader answers) throws IOException {
    while (true) {
      cli.out().print("Cancel job_id=" + JobIds.arrayAware(j) + " name=" + j.getName()
          + " partition=" + j.getPartition() + " [y/n]? ");
      cli.out().flush();
      String line = answers.readLine();
      if (line == null) {
        return false;
      }
      String a = line.strip();
      if (a.startsWith("y") || a.startsWith("Y")) {
        return true;
      }
      if (a.startsWith("n") || a.startsWith("N")) {
        return false;
      }
    }
  }
}

package org.corral.cli.scancel;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Runs scancel against a controller that records requests and replays a canned answer. */
final class FakeController {

  final List<Request> requests = new ArrayList<>();
  Map<String, String> env = Map.of("USER", "alice");
  Response response = Response.newBuilder().setJobResults(JobResultsReply.newBuilder()).build();
  IOException failure;
  String out;
  String err;

  /** Answers with one result per pair of (job id, error code). */
  FakeController results(int... idsAndCodes) {
    JobResultsReply.Builder b = JobResultsReply.newBuilder();
    for (int i = 0; i < idsAndCodes.length; i += 2) {
      b.addResults(JobResult.newBuilder().setJobId(idsAndCodes[i]).setErrorCode(idsAndCodes[i + 1]));
    }
    response = Response.newBuilder().setJobResults(b).build();
    return this;
  }

  int run(String... args) {
    CommandRun r = CommandRun.of(new ScancelCommand(), "scancel", env, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
        CommandRun.recording(requests, failure, response), List.of(args));
    out = r.out();
    err = r.err();
    return r.exitCode();
  }

  /** The one cancel request sent. */
  CancelJobsRequest request() {
    if (requests.size() != 1) {
      throw new AssertionError("expected one request, got " + requests);
    }
    return requests.get(0).getCancelJobs();
  }
}

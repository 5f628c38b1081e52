package org.corral.cli.scancel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.protocol.RpcChannel;
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
    var outBytes = new ByteArrayOutputStream();
    var errBytes = new ByteArrayOutputStream();
    RpcChannel channel = request -> {
      requests.add(request);
      if (failure != null) {
        throw failure;
      }
      return response;
    };
    Cli cli = new Cli("scancel", new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8), env,
        Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), () -> channel);
    int rc = new ScancelCommand().run(List.of(args), cli);
    out = outBytes.toString(StandardCharsets.UTF_8);
    err = errBytes.toString(StandardCharsets.UTF_8);
    return rc;
  }

  /** The one cancel request sent. */
  CancelJobsRequest request() {
    if (requests.size() != 1) {
      throw new AssertionError("expected one request, got " + requests);
    }
    return requests.get(0).getCancelJobs();
  }
}

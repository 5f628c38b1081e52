package org.corral.cli.sbatch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobReply;

/** Runs sbatch against a recording fake controller, in a given directory, with given stdin. */
final class FakeSubmitter implements SubmitterFacts {

  final Path cwd;
  final Map<String, String> env = new LinkedHashMap<>();
  final List<Request> requests = new ArrayList<>();
  String stdin = "";
  Response response = Response.newBuilder()
      .setSubmitJob(SubmitJobReply.newBuilder().setJobId(42)).build();
  IOException failure;
  String out;
  String err;

  FakeSubmitter(Path cwd) {
    this.cwd = cwd;
  }

  int run(String... args) {
    var command = new SbatchCommand(
        () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), this);
    CommandRun r = CommandRun.of(command, "sbatch", Map.copyOf(env), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
        CommandRun.recording(requests, failure, response), List.of(args));
    out = r.out();
    err = r.err();
    return r.exitCode();
  }

  /** The one job submitted. */
  JobSpec spec() {
    if (requests.size() != 1) {
      throw new AssertionError("expected one request, got " + requests);
    }
    return requests.get(0).getSubmitJob().getSpec();
  }

  /** The job's environment as a map. */
  Map<String, String> jobEnv() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String kv : spec().getEnvironmentList()) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return m;
  }

  @Override
  public String hostname() {
    return "submithost";
  }

  @Override
  public Path currentDirectory(Map<String, String> environment) {
    return cwd;
  }

  @Override
  public Map<String, String> processVariables() {
    return Map.of("SLURM_UMASK", "0022", "SLURM_PRIO_PROCESS", "0");
  }
}

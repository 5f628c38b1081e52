package org.corral.cli.sbatch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.protocol.RpcChannel;
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
    var outBytes = new ByteArrayOutputStream();
    var errBytes = new ByteArrayOutputStream();
    RpcChannel channel = request -> {
      requests.add(request);
      if (failure != null) {
        throw failure;
      }
      return response;
    };
    Cli cli = new Cli("sbatch", new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8), Map.copyOf(env),
        Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), () -> channel);
    var command = new SbatchCommand(
        () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), this);
    int rc = command.run(List.of(args), cli);
    out = outBytes.toString(StandardCharsets.UTF_8);
    err = errBytes.toString(StandardCharsets.UTF_8);
    return rc;
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

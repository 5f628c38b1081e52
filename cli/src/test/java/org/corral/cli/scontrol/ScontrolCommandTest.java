package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

class ScontrolCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<Request> sent = new ArrayList<>();

  private static final UserDirectory NO_USERS = UserDirectory.none();

  private Map<String, String> env = Map.of("SLURM_CONF", "/nonexistent/slurm.conf");

  private int run(RpcChannel channel, String... args) {
    Cli cli = new Cli("scontrol", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env,
        Clock.fixed(Instant.ofEpochSecond(1_000_000), ZoneOffset.UTC), () -> request -> {
          sent.add(request);
          return channel.call(request);
        });
    return new ScontrolCommand(NO_USERS).run(List.of(args), cli);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void versionPrintsUpstreamForm() {
    assertThat(run(r -> Response.getDefaultInstance(), "version")).isZero();
    assertThat(run(r -> Response.getDefaultInstance(), "-V")).isZero();
    assertThat(out()).isEqualTo("slurm-wlm 22.05.8\nslurm-wlm 22.05.8\n");
  }

  @Test
  void pingReportsDownWhenTheControllerCannotBeReached() {
    int rc = run(r -> {
      throw new IOException("connection refused");
    }, "ping");
    assertThat(rc).isEqualTo(1);
    assertThat(out()).isEqualTo("Slurmctld(primary) at localhost is DOWN\n");
  }

  @Test
  void pingNamesTheConfiguredControllerWhenDown(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws IOException {
    java.nio.file.Path conf = dir.resolve("slurm.conf");
    java.nio.file.Files.writeString(conf, "ClusterName=c\nSlurmctldHost=head1(10.0.0.1)\n"
        + "NodeName=n1\nPartitionName=p Nodes=ALL\n");
    env = Map.of("SLURM_CONF", conf.toString());
    assertThat(run(r -> {
      throw new IOException("connection refused");
    }, "ping")).isEqualTo(1);
    assertThat(out()).isEqualTo("Slurmctld(primary) at head1 is DOWN\n");
  }

  @Test
  void emptyQueueSaysSo() {
    int rc = run(r -> Response.newBuilder().setJobInfo(JobInfoReply.getDefaultInstance()).build(),
        "show", "job");
    assertThat(rc).isZero();
    assertThat(out()).isEqualTo("No jobs in the system\n");
  }

  @Test
  void uholdSendsAUserHoldForEveryListedJob() {
    int rc = run(r -> Response.newBuilder().setJobResults(JobResultsReply.getDefaultInstance())
        .build(), "uhold", "5,6", "7");
    assertThat(rc).isZero();
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getHoldJobs().getJobIdsList()).containsExactly(5, 6, 7);
    assertThat(sent.get(0).getHoldJobs().getUserHold()).isTrue();
    assertThat(sent.get(0).getHoldJobs().getRelease()).isFalse();
  }

  @Test
  void abbreviationsShorterThanSlurmAllowsAreRejected() {
    assertThat(run(r -> Response.getDefaultInstance(), "sh", "job")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("invalid keyword: sh\n");
    assertThat(sent).isEmpty();
  }

  @Test
  void hostnamesExpandOnePerLine() {
    assertThat(run(r -> Response.getDefaultInstance(), "show", "hostnames", "a[1-2],b")).isZero();
    assertThat(out()).isEqualTo("a1\na2\nb\n");
  }
}

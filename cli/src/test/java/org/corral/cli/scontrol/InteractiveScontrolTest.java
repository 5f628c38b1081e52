package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoReply;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

/** scontrol's commands from stdin and its -a and -v options, as the reference prints them. */
class InteractiveScontrolTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<Request> sent = new ArrayList<>();

  private int run(String stdin, String... args) {
    Cli cli = new Cli("scontrol", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("SLURM_CONF", "/nonexistent/slurm.conf"),
        Clock.fixed(Instant.ofEpochSecond(1_000_000), ZoneOffset.UTC), () -> request -> {
          sent.add(request);
          if (request.hasPing()) {
            return Response.newBuilder().setPing(PingReply.newBuilder().setHost("vm").setPrimary(true)).build();
          }
          if (request.hasPartitionInfo()) {
            return Response.newBuilder().setPartitionInfo(PartitionInfoReply.newBuilder().setLastUpdate(1_000_000)
                .addPartitions(PartitionInfo.newBuilder().setName("debug"))).build();
          }
          return Response.getDefaultInstance();
        });
    return new ScontrolCommand(UserDirectory.none(),
        () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))).run(List.of(args), cli);
  }

  @Test
  void readsCommandsFromStdinEchoingEachAfterThePrompt() {
    int rc = run("show hostnames n[1-2]\nbogus\n\nping\nexit\nping\n");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("scontrol: show hostnames n[1-2]\nn1\nn2\n"
        + "scontrol: bogus\nscontrol: \nscontrol: ping\nSlurmctld(primary) at vm is UP\nscontrol: exit\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("invalid keyword: bogus\n");
    assertThat(rc).isEqualTo(1); // one command failed
    assertThat(sent).hasSize(1);
  }

  @Test
  void theEndOfInputGetsAPromptAndModeKeywordsApplyToLaterCommands() {
    assertThat(run("  show   hostnames   'n1'")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("scontrol:   show   hostnames   'n1'\nn1\nscontrol: \n");
    out.reset();
    assertThat(run("all\nverbose\nshow partition\n")).isZero();
    assertThat(sent.get(0).getPartitionInfo().getAll()).isTrue();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(
        "scontrol: all\nscontrol: verbose\nscontrol: show partition\nlast_update_time=1970-01-12T13:46:40, records=1\n"
        + "PartitionName=debug\n");
  }

  @Test
  void allAndVerboseOnTheCommandLine() {
    assertThat(run("", "--all", "--oneliner", "-v", "show", "partition")).isZero();
    assertThat(sent.get(0).getPartitionInfo().getAll()).isTrue();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(
        "last_update_time=1970-01-12T13:46:40, records=1\nPartitionName=debug AllowGroups=");
    sent.clear();
    assertThat(run("", "show", "partition")).isZero();
    assertThat(sent.get(0).getPartitionInfo().getAll()).isFalse();
  }

  @Test
  void hostnamesInTheOrderGivenFromTheEnvironmentWithoutAListAndHostlistSorted() throws Exception {
    assertThat(run("", "show", "hostnames", "n[3,1,2],n1,m2")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("n3\nn1\nn2\nn1\nm2\n");
    out.reset();
    assertThat(run("", "show", "hostlistsorted", "n3,n10,n1,n2,n1")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("n[1,1-3,10]\n");
    out.reset();
    assertThat(run("", "show", "hostnames")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("scontrol: error: host list is empty\n");
    java.nio.file.Path file = java.nio.file.Files.createTempFile("hosts", ".txt");
    try {
      java.nio.file.Files.writeString(file, "n2,n1\nn[4-5]\n");
      assertThat(run("", "show", "hostnames", file.toString())).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("n2\nn1\nn4\nn5\n");
    } finally {
      java.nio.file.Files.delete(file);
    }
  }
}

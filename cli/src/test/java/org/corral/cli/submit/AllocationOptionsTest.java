package org.corral.cli.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.CliCommand;
import org.corral.cli.CommandRun;
import org.corral.cli.salloc.SallocCommand;
import org.corral.cli.sbatch.SbatchCommand;
import org.corral.cli.sbatch.SubmitterFacts;
import org.corral.cli.srun.SrunCommand;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The allocation options sbatch, srun and salloc share reach the job request alike from each
 * (srun and salloc once dropped -A, -q and --comment): each command is run against a controller
 * that records the submission and refuses it.
 */
class AllocationOptionsTest {

  /** 2026-11-28T06:32:01Z, a Saturday, as the reference runs were. */
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T06:32:01Z"), ZoneOffset.UTC);

  @TempDir
  Path dir;

  private final List<Request> sent = new ArrayList<>();

  private CommandRun run(String program, String... args) {
    SubmitterFacts facts = new FixedSubmitterFacts("login1", dir);
    ClusterFacts cluster = new ClusterFacts("c", "h", 6817, 30, Path.of("/etc/slurm.conf"));
    CliCommand command = switch (program) {
      case "sbatch" -> new SbatchCommand(() -> new ByteArrayInputStream(new byte[0]), facts);
      case "srun" -> new SrunCommand(() -> new ByteArrayInputStream(new byte[0]), facts, env -> cluster,
          SignalQueue::new);
      default -> new SallocCommand(facts, env -> cluster, SignalQueue::new);
    };
    List<String> argv = new ArrayList<>(List.of(args));
    if (program.equals("sbatch")) {
      argv.add("--wrap=true");
    } else {
      argv.add("true");
    }
    Response refusal = Response.newBuilder().setErrorCode(2017).build();
    return CommandRun.of(command, program, Map.of("PATH", System.getenv("PATH")), CLOCK,
        CommandRun.recording(sent, null, refusal), argv);
  }

  private JobSpec submitted() {
    return sent.get(0).getSubmitJob().getSpec();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sbatch", "srun", "salloc"})
  void accountQosCommentAndTheJobsTimesReachTheRequest(String program) {
    run(program, "-A", "Physics", "-q", "high", "--comment=a note", "--begin=noon-tomorrow",
        "--deadline=2027-01-01T10:00", "-d", "afterok:12", "-H", "--nice=7", "--mincpus=3", "-O", "-N-3");
    JobSpec s = submitted();
    assertThat(s.getAccount()).isEqualTo("Physics"); // the controller lower-cases it, as Slurm's
    assertThat(s.getQos()).isEqualTo("high");
    assertThat(s.getComment()).isEqualTo("a note");
    assertThat(Instant.ofEpochSecond(s.getBeginTime())).isEqualTo(Instant.parse("2026-11-29T12:00:00Z"));
    assertThat(Instant.ofEpochSecond(s.getDeadline())).isEqualTo(Instant.parse("2027-01-01T10:00:00Z"));
    assertThat(s.getDependency()).isEqualTo("afterok:12");
    assertThat(s.getHold()).isTrue();
    assertThat(s.getNice()).isEqualTo(7);
    assertThat(s.getMinCpusPerNode()).isEqualTo(3);
    assertThat(s.getOvercommit()).isTrue();
    assertThat(s.getMinNodes()).isEqualTo(1);
    assertThat(s.getMaxNodes()).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sbatch", "srun", "salloc"})
  void anUnreadableBeginIsRefusedAsSlurmDoes(String program) {
    CommandRun r = run(program, "--begin=now+1h");
    assertThat(r.exitCode()).isEqualTo(255);
    assertThat(r.err()).isEqualTo("Invalid time specification (pos=0): now+1h\n"
        + program + ": error: Invalid --begin specification\n");
    assertThat(sent).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sbatch", "srun", "salloc"})
  void aDeadlineBeforeTheBeginIsRefused(String program) {
    CommandRun r = run(program, "--begin=now+60", "--deadline=now");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(program + ": error: Incompatible begin and deadline time specification\n");
    assertThat(sent).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sbatch", "srun", "salloc"})
  void mincpusIsCheckedWithSlurmsMessage(String program) {
    CommandRun r = run(program, "--mincpus=x");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).isEqualTo(program + ": error: Invalid numeric value \"x\" for --mincpus.\n");
  }
}

package org.corral.cli.squeue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

class SqueueCommandTest {
  private static final long NOW = 1_800_000_000L;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private static final UserDirectory USERS = new UserDirectory() {
    @Override
    public OptionalInt uidOf(String name) {
      return name.equals("ann") ? OptionalInt.of(500) : OptionalInt.empty();
    }

    @Override
    public Optional<String> nameOf(int uid) {
      return Optional.empty();
    }
  };

  private int run(RpcChannel channel, Map<String, String> env, String... args) {
    Cli cli = new Cli("squeue", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env,
        Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC), () -> channel);
    return new SqueueCommand(USERS).run(List.of(args), cli);
  }

  private static RpcChannel jobs(JobInfo... jobs) {
    return r -> Response.newBuilder()
        .setJobInfo(JobInfoReply.newBuilder().addAllJobs(List.of(jobs))).build();
  }

  private static JobInfo.Builder job(int id, JobState s) {
    return JobInfo.newBuilder().setJobId(id).setName("j" + id).setUserName("ann").setUserId(500)
        .setPartition("p").setState(s).setNumNodes(1).setTimeLimitMin(60).setStateReason("None");
  }

  @Test
  void completingJobsShowAsCgWithTheirNodesAndElapsedTimeRunsToNow() {
    run(jobs(job(1, JobState.COMPLETED).setCompleting(true).setNodes("n1")
            .setStartTime(NOW - 65).build(),
        job(2, JobState.RUNNING).setNodes("n[2-3]").setNumNodes(2).setStartTime(NOW - 1925)
            .build(),
        job(3, JobState.RUNNING).setNodes("n4").setTimeLimitMin(-1).setStartTime(NOW - 3725)
            .build()),
        Map.of(), "-h", "-o", "%i %t %M %L %R");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
        "1 CG 1:05 58:55 n1\n2 R 32:05 27:55 n[2-3]\n3 R 1:02:05 UNLIMITED n4\n");
  }

  @Test
  void jobsEqualOnEveryKeyComePendingNewestFirstOthersOldestFirst() {
    // As Slurm 22.05 orders them (observed on the reference cluster).
    run(jobs(job(11, JobState.RUNNING).build(), job(12, JobState.RUNNING).build(),
        job(13, JobState.PENDING).build(), job(14, JobState.PENDING).build()), Map.of(), "-h", "-o", "%i");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("14\n13\n11\n12\n");
  }

  @Test
  void environmentSetsStatesAndOptionsOverrideIt() {
    RpcChannel ch = jobs(job(1, JobState.PENDING).build(), job(2, JobState.TIMEOUT).build());
    run(ch, Map.of("SQUEUE_STATES", "TO"), "-h", "-o", "%i");
    run(ch, Map.of("SQUEUE_STATES", "TO"), "-h", "-o", "%i", "-t", "PD");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("2\n1\n");
  }

  @Test
  void unreachableControllerIsAnError() {
    int rc = run(r -> {
      throw new IOException("refused");
    }, Map.of());
    assertThat(rc).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo("slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
  }

  @Test
  void iterateTakesPositiveSecondsWithTheReferencesMessage() {
    assertThat(run(jobs(), Map.of(), "-i", "0")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("squeue: error: --iterate=0\n\n");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void featuresAreTheJobsConstraintAsTheReferencePrintsThem() {
    // Recorded on the reference: sbatch -C fast, and a job without -C.
    run(jobs(job(44, JobState.PENDING).setFeatures("fast").build(), job(45, JobState.PENDING).build()), Map.of(),
        "-h", "-j", "44,45", "-o", "%i|%f|");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("45|(null)|\n44|fast|\n");
  }
}

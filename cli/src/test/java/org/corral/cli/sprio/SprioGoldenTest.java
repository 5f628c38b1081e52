package org.corral.cli.sprio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.ConfigReply;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.PriorityFactors;
import org.corral.protocol.msg.PriorityWeights;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * sprio against what Slurm 22.05 printed (resources sprio/NAME.{args,out,err,rc}) for this queue
 * on 4 nodes of 8 CPUs with PriorityWeightAge=1000 Assoc=700 Fairshare=10000 JobSize=2000
 * Partition=3000 QOS=500: job 27 runs on every node; 28-30 ask -n1..-n3; 31 -N2 --nice=100;
 * 32 is held.
 */
class SprioGoldenTest {
  static final PriorityWeights WEIGHTS = PriorityWeights.newBuilder().setMultifactor(true)
      .setAge(1000).setAssoc(700).setFairshare(10000).setJobSize(2000).setPartition(3000).setQos(500)
      .build();

  private static JobInfo pending(int id, int priority, double size, int nice) {
    return JobInfo.newBuilder().setJobId(id).setUserName("root").setUserId(0).setPartition("debug")
        .setState(JobState.PENDING).setStateReason("Resources").setPriority(priority).setNice(nice)
        .setPriorityFactors(PriorityFactors.newBuilder().setJobSize(size).setPartition(1.0)
            .setSum(3000 * 1.0 + 2000 * size - nice)).build(); // as the controller computes it
  }

  static final List<JobInfo> JOBS = List.of(
      JobInfo.newBuilder().setJobId(27).setUserName("root").setPartition("debug")
          .setState(JobState.RUNNING).setPriority(4125).build(),
      pending(28, 3281, 0.140625, 0), pending(29, 3312, 0.15625, 0), pending(30, 3343, 0.171875, 0),
      pending(31, 3462, 0.28125, 100),
      pending(32, 0, 0.140625, 0).toBuilder().setStateReason("JobHeldUser").build());

  static RpcChannel controller(PriorityWeights weights) {
    return request -> switch (request.getBodyCase()) {
      case CONFIG -> Response.newBuilder()
          .setConfig(ConfigReply.newBuilder().setPriorityWeights(weights)).build();
      case JOB_INFO -> Response.newBuilder()
          .setJobInfo(JobInfoReply.newBuilder().addAllJobs(JOBS)).build();
      default -> Response.newBuilder().setErrorCode(1).build();
    };
  }

  static final UserDirectory USERS = new UserDirectory() {
    @Override
    public OptionalInt uidOf(String name) {
      return name.equals("root") ? OptionalInt.of(0) : OptionalInt.empty();
    }

    @Override
    public Optional<String> nameOf(int uid) {
      return uid == 0 ? Optional.of("root") : Optional.empty();
    }
  };

  record Run(String out, String err, int rc) {}

  static Run run(PriorityWeights weights, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sprio", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(),
        Clock.fixed(Instant.ofEpochSecond(1_795_000_000L), ZoneOffset.UTC), () -> controller(weights));
    int rc = new SprioCommand(USERS).run(Arrays.asList(args), cli);
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), rc);
  }

  @TestFactory
  Stream<DynamicTest> matchesSlurm() {
    return Stream.of("default", "long", "norm", "weights", "weights_long", "norm_long", "custom",
        "held_job", "user", "noheader", "jobs", "sorted", "partition", "user_norm")
        .map(name -> DynamicTest.dynamicTest(name, () -> {
          String line = resource(name + ".args").strip();
          String[] args = line.isEmpty() ? new String[0] : line.split(" ");
          Run r = run(WEIGHTS, args);
          assertThat(r.out()).isEqualTo(resource(name + ".out"));
          assertThat(r.err()).isEqualTo(resource(name + ".err"));
          assertThat(r.rc()).isEqualTo(Integer.parseInt(resource(name + ".rc").strip()));
        }));
  }

  @Test
  void priorityBasicIsRefusedAsSlurmRefusesIt() {
    Run r = run(PriorityWeights.getDefaultInstance());
    assertThat(r.rc()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("You are not running a supported priority plugin\n(priority/basic).\n"
        + "Only 'priority/multifactor' is supported.\n");
  }

  @Test
  void zeroWeightsLeaveOnlyPriorityAndSite() {
    PriorityWeights none = PriorityWeights.newBuilder().setMultifactor(true).build();
    assertThat(run(none, "-j28").out()).isEqualTo("          JOBID PARTITION   PRIORITY       SITE\n"
        + "             28 debug           3281          0\n");
    assertThat(run(none, "-w").out()).isEqualTo("          JOBID PARTITION   PRIORITY       SITE\n"
        + "        Weights                               1\n");
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = SprioGoldenTest.class.getResourceAsStream("/sprio/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

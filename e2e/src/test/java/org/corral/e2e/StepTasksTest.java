package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.StepIo;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepSpec;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real slurmd of a `corral up` cluster runs a step's tasks when the controller orders it: the
 * order is sent here with the controller's credentials (the controller's step side is built
 * elsewhere), and this test plays srun's I/O listener.
 */
class StepTasksTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run tasks as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.up(1, 2, 1000);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theNodeDaemonRunsTheStepsTasksAsTheUserAndStreamsThemToSrun() throws Exception {
    Path work = cluster.workDir(alice);
    int jobId = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--wrap", "sleep 120"));
    assertThat(cluster.awaitState(jobId, "RUNNING", 30)).isEqualTo("RUNNING");

    try (ServerSocket srun = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      srun.setSoTimeout(30_000);
      Request launch = Request.newBuilder().setLaunchTasks(launchOrder(jobId, work, srun.getLocalPort())).build();
      TcpChannel asNode = new TcpChannel("127.0.0.1", cluster.portBase + 11, "n1",
          new Credentials(ClusterKey.load(cluster.dir.resolve("slurm.key")), "n1", Clock.systemUTC()),
          Duration.ofSeconds(10));
      assertThat(asNode.call(launch).getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
      TcpChannel asController = new TcpChannel("127.0.0.1", cluster.portBase + 11, "n1",
          new Credentials(ClusterKey.load(cluster.dir.resolve("slurm.key")), "slurmctld", Clock.systemUTC()),
          Duration.ofSeconds(10));
      Response r = asController.call(launch);
      assertThat(r.getErrorCode()).as(r.getErrorMessage()).isZero();

      List<IoFrame> frames = new ArrayList<>();
      try (Socket node = srun.accept()) {
        node.setSoTimeout(30_000);
        IoFrame frame;
        while ((frame = StepIo.read(node.getInputStream())) != null) {
          frames.add(frame);
        }
      }
      assertThat(frames.get(0).getHello().getNodeName()).isEqualTo("n1");
      assertThat(frames.get(0).getHello().getJobId()).isEqualTo(jobId);
      for (int task = 0; task < 2; task++) {
        int t = task;
        assertThat(stdout(frames, task)).isEqualTo(alice.uid() + "\n" + task + " n1 "
            + cluster.dir.resolve("slurm.conf") + "\n");
        assertThat(frames).filteredOn(f -> f.hasTaskExit() && f.getTaskExit().getTask() == t)
            .singleElement().satisfies(f -> assertThat(f.getTaskExit().getStatus()).isEqualTo(3 << 8));
      }
    }
  }

  private static String stdout(List<IoFrame> frames, int task) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    frames.stream().filter(f -> f.hasStdout() && f.getStdout().getTask() == task)
        .forEach(f -> out.writeBytes(f.getStdout().getData().toByteArray()));
    return out.toString(StandardCharsets.UTF_8);
  }

  private static LaunchTasksRequest launchOrder(int jobId, Path work, int port) {
    JobInfo job = JobInfo.newBuilder().setJobId(jobId).setName("wrap").setUserId(alice.uid())
        .setUserName(alice.name()).setGroupId(alice.gid()).setState(JobState.RUNNING).setNodes("n1").setNumNodes(1)
        .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(1)).build();
    StepInfo step = StepInfo.newBuilder().setJobId(jobId).setStepId(0).addNodeNames("n1").addTasksOnNode(2)
        .setNumTasks(2).build();
    StepSpec spec = StepSpec.newBuilder().setJobId(jobId)
        .addAllArgv(List.of("sh", "-c", "id -u; echo $SLURM_PROCID $SLURMD_NODENAME $SLURM_CONF; exit 3"))
        .addEnvironment("PATH=/usr/bin:/bin").setWorkDir(work.toString()).setIoHost("127.0.0.1").setIoPort(port)
        .setStdinTask(-2).build();
    return LaunchTasksRequest.newBuilder().setJob(job).setStep(step).setSpec(spec)
        .setIoKey(ByteString.copyFromUtf8("key")).setNodeIndex(0).addAllTaskIds(List.of(0, 1)).build();
  }
}

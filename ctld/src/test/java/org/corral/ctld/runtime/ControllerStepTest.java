package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcServer;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.CompleteAllocationRequest;
import org.corral.protocol.msg.CreateStepRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.RegisterNodeRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SignalStepRequest;
import org.corral.protocol.msg.StepFinishedRequest;
import org.corral.protocol.msg.StepInfoRequest;
import org.corral.protocol.msg.StepSpec;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.protocol.msg.WaitAllocationRequest;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steps through the controller over the real transport, with two nodes played by the test: an
 * allocation is granted, steps are placed and launched on both nodes, a second step waits for
 * busy CPUs, nodes report the end, and the allocation is completed by its owner.
 */
class ControllerStepTest {
  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final Map<String, List<Request>> received = new ConcurrentHashMap<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  private TcpChannel node(String name, int port, int ctldPort) throws Exception {
    Credentials creds = new Credentials(ClusterKey.load(dir.resolve("slurm.key")), name, Clock.systemUTC());
    List<Request> inbox = new CopyOnWriteArrayList<>();
    received.put(name, inbox);
    open.add(RpcServer.start(new RpcServerConfig("127.0.0.1", port, null, 1 << 20, Duration.ofSeconds(10), 16),
        creds, (peer, req) -> {
          inbox.add(req);
          return Response.getDefaultInstance();
        }));
    TcpChannel link = new TcpChannel("127.0.0.1", ctldPort, "slurmctld", creds, Duration.ofSeconds(5));
    assertThat(link.call(Request.newBuilder().setRegisterNode(RegisterNodeRequest.newBuilder()
        .setNodeName(name).setCpus(4).setRealMemoryMb(1000).setSlurmdStartTime(1)).build()).getErrorCode()).isZero();
    return link;
  }

  private List<Request> awaitRequests(String node, Request.BodyCase kind, int count) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      List<Request> got = received.get(node).stream().filter(r -> r.getBodyCase() == kind).toList();
      if (got.size() >= count) {
        return got;
      }
      Thread.sleep(50);
    }
    return received.get(node).stream().filter(r -> r.getBodyCase() == kind).toList();
  }

  @Test
  void stepsArePlacedLaunchedWaitedForAndEndedWithTheirAllocation() throws Exception {
    int ctldPort = FreePorts.one();
    int p1 = FreePorts.one();
    int p2 = FreePorts.one();
    SlurmConfig cfg = TestClusterConfig.write(dir, ctldPort, """
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        NodeName=n2 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(p1, p2));
    Controller ctld = Controller.start(cfg, Clock.systemUTC(),
        RecoveryMode.STRICT, false, Duration.ofSeconds(2));
    open.add(ctld);
    UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + ctldPort + ".sock"));
    TcpChannel n1 = node("n1", p1, ctldPort);
    TcpChannel n2 = node("n2", p2, ctldPort);

    int job = user.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder()
        .setName("interactive").setInteractive(true).setMinNodes(2).setNumTasks(4).setWorkDir("/tmp"))).build())
        .getSubmitJob().getJobId();
    JobInfo granted = user.call(Request.newBuilder().setWaitAllocation(WaitAllocationRequest.newBuilder()
        .setJobId(job).setTimeoutMs(10_000)).build()).getWaitAllocation().getJob();
    assertThat(granted.getState()).as(granted.toString()).isEqualTo(JobState.RUNNING);
    assertThat(granted.getInteractive()).isTrue();
    // As Slurm lays out -N2 -n4: a task on each node, the rest on the first (CPUs 3,1).
    assertThat(granted.getAllocationList()).extracting(a -> a.getCpus()).containsExactly(3, 1);

    Response created = user.call(Request.newBuilder().setCreateStep(CreateStepRequest.newBuilder().setSpec(
        StepSpec.newBuilder().setJobId(job).setNumTasks(3).addArgv("/bin/hostname")
            .addEnvironment("SLURM_NNODES=9").addEnvironment("HOME=/tmp"))).build());
    assertThat(created.getErrorCode()).isZero();
    assertThat(created.getCreateStep().getStep().getNodes()).isEqualTo("n[1-2]");
    assertThat(created.getCreateStep().getStep().getTasksOnNodeList()).containsExactly(2, 1);
    assertThat(created.getCreateStep().getStep().getName()).isEqualTo("hostname");
    assertThat(created.getCreateStep().getIoKey().size()).isEqualTo(32);

    LaunchTasksRequest onN1 = awaitRequests("n1", Request.BodyCase.LAUNCH_TASKS, 1).get(0).getLaunchTasks();
    LaunchTasksRequest onN2 = awaitRequests("n2", Request.BodyCase.LAUNCH_TASKS, 1).get(0).getLaunchTasks();
    assertThat(received.get("n1")).noneMatch(r -> r.hasLaunchBatch()); // an allocation runs no script
    assertThat(onN1.getTaskIdsList()).containsExactly(0, 1);
    assertThat(onN2.getTaskIdsList()).containsExactly(2);
    assertThat(onN2.getNodeIndex()).isEqualTo(1);
    assertThat(onN2.getIoKey()).isEqualTo(created.getCreateStep().getIoKey());
    assertThat(onN1.getSpec().getEnvironmentList()).contains("HOME=/tmp", "SLURM_NNODES=2",
        "SLURM_STEP_NODELIST=n[1-2]", "SLURM_TASKS_PER_NODE=2,1", "SLURM_STEP_ID=0", "SLURM_NTASKS=3")
        .doesNotContain("SLURM_NNODES=9");

    // The first step holds n2's only CPU of the job: a second needing it must wait, one with --overlap need not.
    Response busy = user.call(Request.newBuilder().setCreateStep(CreateStepRequest.newBuilder().setSpec(
        StepSpec.newBuilder().setJobId(job).setNumTasks(1).setNodeList("n2").addArgv("true"))).build());
    assertThat(busy.getErrorCode()).isEqualTo(SlurmError.NODES_BUSY.code());
    Response overlap = user.call(Request.newBuilder().setCreateStep(CreateStepRequest.newBuilder().setSpec(
        StepSpec.newBuilder().setJobId(job).setNumTasks(1).setNodeList("n2").setOverlap(true).addArgv("true")))
        .build());
    assertThat(overlap.getCreateStep().getStep().getStepId()).isEqualTo(1);
    assertThat(user.call(Request.newBuilder().setStepInfo(StepInfoRequest.newBuilder().setJobId(job)).build())
        .getStepInfo().getStepsCount()).isEqualTo(2);

    // Step 0 ends once both its nodes say so; then its CPUs are free again.
    for (TcpChannel n : List.of(n1, n2)) {
      String name = n == n1 ? "n1" : "n2";
      assertThat(n.call(Request.newBuilder().setStepFinished(StepFinishedRequest.newBuilder().setJobId(job)
          .setStepId(0).setNodeName(name).setExitStatus(0).setEndTime(5)).build()).getErrorCode()).isZero();
    }
    assertThat(user.call(Request.newBuilder().setStepInfo(StepInfoRequest.newBuilder().setJobId(job)
        .setStepId(0)).build()).getStepInfo().getStepsCount()).isZero();
    assertThat(user.call(Request.newBuilder().setCreateStep(CreateStepRequest.newBuilder().setSpec(
        StepSpec.newBuilder().setJobId(job).setNumTasks(1).setNodeList("n2").addArgv("true"))).build())
        .getErrorCode()).isZero();

    // Cancelling a step signals its node; completing the allocation ends the job and its nodes' work.
    assertThat(user.call(Request.newBuilder().setSignalStep(SignalStepRequest.newBuilder().setJobId(job)
        .setStepId(1)).build()).getErrorCode()).isZero();
    assertThat(awaitRequests("n2", Request.BodyCase.SIGNAL_TASKS, 1)).hasSize(1);
    assertThat(user.call(Request.newBuilder().setCompleteAllocation(CompleteAllocationRequest.newBuilder()
        .setJobId(job).setExitStatus(2 << 8)).build()).getErrorCode()).isZero();
    JobInfo ended = user.call(Request.newBuilder().setWaitAllocation(WaitAllocationRequest.newBuilder()
        .setJobId(job)).build()).getWaitAllocation().getJob();
    assertThat(ended.getState()).isEqualTo(JobState.FAILED);
    assertThat(ended.getExitStatus()).isEqualTo(2 << 8);
    assertThat(awaitRequests("n2", Request.BodyCase.SIGNAL_JOB, 1)).hasSize(1);
    assertThat(user.call(Request.newBuilder().setCreateStep(CreateStepRequest.newBuilder().setSpec(
        StepSpec.newBuilder().setJobId(job).addArgv("true"))).build()).getErrorCode())
        .isEqualTo(SlurmError.ALREADY_DONE.code());
  }
}

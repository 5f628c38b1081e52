package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcServer;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.JobFinishedRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.RegisterNodeRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller in-process with a node played by the test over the real transport: a job is
 * submitted, scheduled when the node registers, launched on it, reported finished; and the
 * state survives a restart with job ids never reused.
 */
class ControllerTest {
  @TempDir Path dir;

  private SlurmConfig config(int ctldPort, int nodePort) throws Exception {
    return TestClusterConfig.write(dir, ctldPort, """
        SlurmdTimeout=300
        DefMemPerCPU=100
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(nodePort));
  }

  private static JobInfo job(UnixSocketChannel ch, int id) throws Exception {
    Response r = ch.call(Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addJobIds(id)).build());
    return r.getJobInfo().getJobs(0);
  }

  private static JobInfo await(UnixSocketChannel ch, int id, JobState state) throws Exception {
    for (int i = 0; i < 100; i++) {
      JobInfo j = job(ch, id);
      if (j.getState() == state && !j.getCompleting()) {
        return j;
      }
      Thread.sleep(100);
    }
    return job(ch, id);
  }

  @Test
  void jobRunsOnARegisteredNodeAndStateSurvivesRestart() throws Exception {
    int ctldPort = FreePorts.one();
    int nodePort = FreePorts.one();
    SlurmConfig cfg = config(ctldPort, nodePort);
    Credentials nodeCreds = new Credentials(ClusterKey.load(dir.resolve("slurm.key")), "n1", Clock.systemUTC());
    List<LaunchBatchRequest> launched = new CopyOnWriteArrayList<>();
    try (RpcServer node = RpcServer.start(new RpcServerConfig("127.0.0.1", nodePort, null, 1 << 20,
        Duration.ofSeconds(10), 16), nodeCreds, (peer, req) -> {
          launched.add(req.getLaunchBatch());
          return Response.getDefaultInstance();
        })) {
      UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + ctldPort + ".sock"));
      TcpChannel nodeLink = new TcpChannel("127.0.0.1", ctldPort, "slurmctld", nodeCreds, Duration.ofSeconds(5));
      int id;
      try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
          Duration.ofSeconds(2))) {
        Response r = user.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
            .setSpec(JobSpec.newBuilder().setName("t").setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp"))).build());
        assertThat(r.getErrorCode()).isZero();
        id = r.getSubmitJob().getJobId();
        assertThat(id).isEqualTo(1);
        assertThat(job(user, id).getState()).isEqualTo(JobState.PENDING);

        assertThat(nodeLink.call(Request.newBuilder().setRegisterNode(RegisterNodeRequest.newBuilder()
            .setNodeName("n1").setCpus(4).setRealMemoryMb(1000).setSlurmdStartTime(1)).build())
            .getErrorCode()).isZero();
        JobInfo running = await(user, id, JobState.RUNNING);
        assertThat(running.getNodes()).isEqualTo("n1");
        for (int i = 0; i < 50 && launched.isEmpty(); i++) {
          Thread.sleep(100);
        }
        assertThat(launched).hasSize(1);
        assertThat(launched.get(0).getSpec().getScript()).isEqualTo("#!/bin/sh\ntrue\n");
        assertThat(launched.get(0).getMemOnNodeMb()).isEqualTo(100);

        assertThat(nodeLink.call(Request.newBuilder().setJobFinished(JobFinishedRequest.newBuilder()
            .setJobId(id).setNodeName("n1").setExitStatus(0).setEndTime(5)).build()).getErrorCode()).isZero();
        assertThat(await(user, id, JobState.COMPLETED).getState()).isEqualTo(JobState.COMPLETED);
      }
      try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
          Duration.ofSeconds(2))) {
        assertThat(job(user, id).getState()).isEqualTo(JobState.COMPLETED);
        Response r = user.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
            .setSpec(JobSpec.newBuilder().setName("t").setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp"))).build());
        assertThat(r.getSubmitJob().getJobId()).isEqualTo(2);
      }
    }
  }

  /**
   * The journal loses its last record (a torn or damaged tail): the job it held is gone, but its
   * id, which its submitter was told, is never handed to another job (the id high-water mark).
   */
  @Test
  void aJobIdLostWithTheJournalsTailIsNeverReused() throws Exception {
    int ctldPort = FreePorts.one();
    SlurmConfig cfg = config(ctldPort, FreePorts.one());
    UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + ctldPort + ".sock"));
    Request submit = Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
        .setSpec(JobSpec.newBuilder().setName("t").setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp"))).build();
    int last = 0;
    Path segment = null;
    long beforeLast = 0;
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
        Duration.ofSeconds(2))) {
      for (int i = 0; i < 3; i++) {
        if (i == 2) {
          try (var files = Files.list(dir.resolve("state/journal"))) {
            segment = files.filter(f -> f.getFileName().toString().endsWith(".log"))
                .max(java.util.Comparator.naturalOrder()).orElseThrow();
          }
          beforeLast = Files.size(segment);
        }
        last = user.call(submit).getSubmitJob().getJobId();
      }
    }
    assertThat(last).isEqualTo(3);
    try (var snapshots = Files.list(dir.resolve("state/journal"))) { // as if killed: no final snapshot
      for (Path snap : snapshots.filter(f -> f.getFileName().toString().endsWith(".snap")).toList()) {
        Files.delete(snap);
      }
    }
    try (var ch = java.nio.channels.FileChannel.open(segment, java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(beforeLast + 3); // the third job's record, acknowledged, is lost to a damaged tail
    }
    // STRICT refuses to start on it; slurmctld -i keeps the intact records
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.IGNORE_DAMAGE, false,
        Duration.ofSeconds(2))) {
      assertThat(user.call(Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addJobIds(3)).build())
          .getJobInfo().getJobsList()).as("the lost job").isEmpty();
      int next = user.call(submit).getSubmitJob().getJobId();
      assertThat(next).isGreaterThan(3);
      assertThat(job(user, 2).getName()).isEqualTo("t");
    }
  }

  @Test
  void aNodeMayNotSpeakForAnotherNorSubmitJobs() throws Exception {
    int ctldPort = FreePorts.one();
    SlurmConfig cfg = config(ctldPort, FreePorts.one());
    Credentials impostor = new Credentials(ClusterKey.load(dir.resolve("slurm.key")), "n9", Clock.systemUTC());
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
        Duration.ofSeconds(2))) {
      Response r = new TcpChannel("127.0.0.1", ctldPort, "slurmctld", impostor, Duration.ofSeconds(5)).call(
          Request.newBuilder().setRegisterNode(RegisterNodeRequest.newBuilder().setNodeName("n1")).build());
      assertThat(r.getErrorMessage()).isEqualTo("Access/permission denied");
      Response submit = new TcpChannel("127.0.0.1", ctldPort, "slurmctld", impostor, Duration.ofSeconds(5)).call(
          Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder()
              .setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp"))).build());
      assertThat(submit.getErrorCode()).isEqualTo(org.corral.common.SlurmError.USER_ID_MISSING.code());
    }
  }
}

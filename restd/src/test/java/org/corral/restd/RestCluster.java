package org.corral.restd;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.runtime.Controller;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcServer;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.msg.JobFinishedRequest;
import org.corral.protocol.msg.RegisterNodeRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.testkit.FreePorts;

/**
 * A real controller (in this JVM, over its real TCP and Unix-socket transport), one node n1
 * played by the test (it accepts every launch and reports a job ended when told to end it), a
 * node n2 in no partition (never registered, never given jobs), and slurmrestd in front, in a
 * temporary directory; {@code extraConf} lines go into slurm.conf.
 */
final class RestCluster implements AutoCloseable {
  final Path dir;
  final SlurmConfig cfg;
  final String base;
  private final RpcServer node;
  private final Controller ctld;
  private final Slurmrestd restd;

  RestCluster(String extraConf) throws Exception {
    dir = Files.createTempDirectory("restd-test");
    int ctldPort = FreePorts.one();
    int nodePort = FreePorts.one();
    Files.writeString(dir.resolve("slurm.conf"), """
        ClusterName=resttest
        SlurmctldHost=localhost(127.0.0.1)
        SlurmctldPort=%d
        SlurmUser=root
        StateSaveLocation=%s/state
        SlurmctldPidFile=%s/slurmctld.pid
        SlurmdTimeout=300
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        NodeName=n2 NodeAddr=127.0.0.1 Port=1 CPUs=1 RealMemory=100
        PartitionName=debug Nodes=n1 Default=YES MaxTime=INFINITE State=UP
        %s
        """.formatted(ctldPort, dir, dir, nodePort, extraConf));
    ClusterKey.generate(dir.resolve("slurm.key"));
    cfg = SlurmConfig.load(dir.resolve("slurm.conf"));
    Credentials nodeCreds = new Credentials(ClusterKey.load(dir.resolve("slurm.key")), "n1", Clock.systemUTC());
    TcpChannel toCtld = new TcpChannel("127.0.0.1", ctldPort, "slurmctld", nodeCreds, Duration.ofSeconds(5));
    node = RpcServer.start(new RpcServerConfig("127.0.0.1", nodePort, null, 1 << 20, Duration.ofSeconds(10), 16),
        nodeCreds, (peer, req) -> {
          if (req.hasSignalJob() && req.getSignalJob().getSignal() == 0) {
            int job = req.getSignalJob().getJobId();
            Thread.ofVirtual().start(() -> ended(toCtld, job));
          }
          return Response.getDefaultInstance();
        });
    ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false, Duration.ofSeconds(2));
    toCtld.call(Request.newBuilder()
        .setRegisterNode(RegisterNodeRequest.newBuilder().setNodeName("n1").setCpus(4).setRealMemoryMb(1000)
            .setSlurmdStartTime(1)).build());
    restd = Slurmrestd.start(cfg, RestdOptions.parse(List.of("127.0.0.1:0"), Map.of()), Clock.systemUTC());
    base = "http://127.0.0.1:" + restd.tcpAddress().getPort();
  }

  /** What slurmd reports once a job it was told to end is gone (killed by SIGTERM). */
  private static void ended(TcpChannel toCtld, int job) {
    try {
      toCtld.call(Request.newBuilder().setJobFinished(JobFinishedRequest.newBuilder().setJobId(job)
          .setNodeName("n1").setExitStatus(15).setEndTime(System.currentTimeMillis() / 1000)).build());
    } catch (java.io.IOException e) {
      // the controller is gone (the test ended): nothing to report to
    }
  }

  @Override
  public void close() {
    restd.close();
    ctld.close();
    node.close();
    org.corral.testkit.TempDirs.deleteTree(dir);
  }
}

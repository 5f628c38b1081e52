package org.corral.slurmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.SignalJobRequest;
import org.corral.protocol.msg.SignalTasksRequest;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.step.StepManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only the controller may give a node daemon orders. */
class NodeServiceTest {
  @TempDir Path spool;

  private static final Request SIGNAL = Request.newBuilder()
      .setSignalJob(SignalJobRequest.newBuilder().setJobId(7).setSignal(10)).build();

  @Test
  void ordersFromAnyoneButTheControllerAreRefused() throws Exception {
    try (JobSupervisor jobs = new JobSupervisor(spool, "n1", Clock.systemUTC(), (a, b, c, d, e) -> { });
        StepManager steps = new StepManager(spool, "n1", "/etc/slurm/slurm.conf", Clock.systemUTC(), 1, r -> { })) {
      NodeService service = new NodeService(jobs, steps, "/etc/slurm/slurm.conf");
      Request launch = Request.newBuilder().setLaunchBatch(LaunchBatchRequest.getDefaultInstance()).build();
      assertThat(service.handle(new Peer(1000, 1000, "alice", null), launch).getErrorCode())
          .isEqualTo(SlurmError.ACCESS_DENIED.code());
      assertThat(service.handle(new Peer(0, 0, "root", null), SIGNAL).getErrorCode())
          .isEqualTo(SlurmError.ACCESS_DENIED.code());
      assertThat(service.handle(Peer.daemon("n2"), SIGNAL).getErrorCode())
          .isEqualTo(SlurmError.ACCESS_DENIED.code());
      assertThat(service.handle(Peer.daemon("slurmctld"), SIGNAL).getErrorCode()).isZero();
      Request tasks = Request.newBuilder().setLaunchTasks(LaunchTasksRequest.getDefaultInstance()).build();
      Request signalTasks = Request.newBuilder().setSignalTasks(SignalTasksRequest.newBuilder().setJobId(7)).build();
      for (Request order : new Request[] {tasks, signalTasks}) {
        assertThat(service.handle(new Peer(0, 0, "root", null), order).getErrorCode())
            .isEqualTo(SlurmError.ACCESS_DENIED.code());
        assertThat(service.handle(Peer.daemon("n2"), order).getErrorCode())
            .isEqualTo(SlurmError.ACCESS_DENIED.code());
      }
      assertThat(service.handle(Peer.daemon("slurmctld"), signalTasks).getErrorCode()).isZero();
      Request badSignal = Request.newBuilder().setSignalJob(SignalJobRequest.newBuilder().setJobId(7).setSignal(99)).build();
      assertThat(service.handle(Peer.daemon("slurmctld"), badSignal).getErrorCode())
          .isEqualTo(SlurmError.INVALID_MESSAGE.code());
    }
  }
}

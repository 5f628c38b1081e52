package org.corral.slurmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.step.StepManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node answers usage questions from the controller only, for jobs it runs. */
class StepStatsTest {
  @TempDir Path spool;

  @Test
  void onlyTheControllerMayAskAndUnknownJobsHaveNoSteps() throws Exception {
    try (JobSupervisor jobs = new JobSupervisor(spool, "n1", Clock.systemUTC(), (a, b, c, d, e) -> { });
        StepManager steps = new StepManager(spool, "n1", "/etc/slurm/slurm.conf", Clock.systemUTC(), 1, r -> { })) {
      NodeService service = new NodeService(jobs, steps, "/etc/slurm/slurm.conf");
      Request ask = Request.newBuilder().setNodeStepStat(StepStatRequest.newBuilder().setJobId(7).setStep("batch"))
          .build();
      assertThat(service.handle(new Peer(1000, 1000, "alice", null), ask).getErrorCode())
          .isEqualTo(SlurmError.ACCESS_DENIED.code());
      var answer = service.handle(Peer.daemon("slurmctld"), ask);
      assertThat(answer.getErrorCode()).isZero();
      assertThat(answer.hasStepStat()).isTrue();
      assertThat(answer.getStepStat().getStepsList()).isEmpty();
    }
  }
}

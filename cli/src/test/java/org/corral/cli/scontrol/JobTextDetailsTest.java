package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

/** `scontrol -d show job`: the per-node CPU_IDs lines whenever the job holds nodes, as 22.05 prints them. */
class JobTextDetailsTest {
  private static String detailed(JobInfo j) {
    return JobText.of(j, 2000, ZoneOffset.UTC, true).render(false);
  }

  private static JobInfo job(JobState state) {
    return JobInfo.newBuilder().setJobId(7).setName("wrap").setState(state).setSubmitTime(1000)
        .setStartTime(1001).setNodes("n1").setBatchHost("n1").setNumCpus(1).setNumNodes(1)
        .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).setCpuIds("3"))
        .build();
  }

  @Test
  void aSuspendedOrEndedJobStillShowsItsCpus() {
    // The reference: JobState=SUSPENDED, then JOB_GRES=(null) and "  Nodes=n1 CPU_IDs=0 Mem=100 GRES=".
    assertThat(detailed(job(JobState.SUSPENDED)))
        .contains("\n   JOB_GRES=(null)\n     Nodes=n1 CPU_IDs=3 Mem=100 GRES=\n   MinCPUsNode=");
    assertThat(detailed(job(JobState.RUNNING))).contains("     Nodes=n1 CPU_IDs=3 Mem=100 GRES=");
    // and after the end: the reference showed "Nodes=n1 CPU_IDs=0-1 Mem=200 GRES=" for a COMPLETED job
    assertThat(detailed(job(JobState.COMPLETED))).contains("     Nodes=n1 CPU_IDs=3 Mem=100 GRES=");
  }

  @Test
  void aPendingJobHoldsNoNodesAndShowsNoNodeLines() {
    JobInfo pending = job(JobState.PENDING).toBuilder().clearAllocation().setNodes("").setBatchHost("").build();
    assertThat(detailed(pending)).doesNotContain("JOB_GRES=", "CPU_IDs=");
  }
}

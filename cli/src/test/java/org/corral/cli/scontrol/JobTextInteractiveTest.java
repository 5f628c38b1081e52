package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.api.Test;

/** An allocation (salloc, srun) as 22.05's scontrol shows it: no batch files, no queue time when granted at once. */
class JobTextInteractiveTest {
  private static String shown(JobInfo j) {
    return JobText.of(j, 2000, ZoneOffset.UTC, false).render(false);
  }

  @Test
  void anAllocationHasNoOutputFilesAndNoAccrueTimeWhenGrantedAtOnce() {
    JobInfo alloc = JobInfo.newBuilder().setJobId(1).setName("no-shell").setInteractive(true)
        .setState(JobState.RUNNING).setSubmitTime(1000).setEligibleTime(1000).setStartTime(1000)
        .setStdOut("/tmp/slurm-1.out").setStdErr("/tmp/slurm-1.out").setStdIn("/dev/null").build();
    assertThat(shown(alloc)).contains("BatchFlag=0", "AccrueTime=Unknown", "   Command=(null)\n   WorkDir=")
        .doesNotContain("StdOut=", "StdErr=", "StdIn=");

    JobInfo batch = alloc.toBuilder().setInteractive(false).build();
    assertThat(shown(batch)).contains("BatchFlag=1", "AccrueTime=1970-01-01T00:16:40", "StdOut=/tmp/slurm-1.out");
  }
}

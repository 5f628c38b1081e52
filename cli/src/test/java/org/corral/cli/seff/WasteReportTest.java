package org.corral.cli.seff;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepUsage;
import org.junit.jupiter.api.Test;

/** seff --waste: the jobs under the thresholds, per user, with what they held unused. */
class WasteReportTest {
  private static final long NOW = SeffGoldenTest.NOW;

  /** A job of {@code cpus} CPUs and {@code memMb} MB that ran an hour using the CPU time and memory given. */
  private static AcctJob job(int id, String user, int cpus, long memMb, long cpuSeconds, long rssKb, JobState state) {
    return AcctJob.newBuilder().setCluster("c").setJobId(id).setUserName(user).setUserId(1000 + id)
        .setState(state).setNumCpus(cpus).setNumNodes(1).setStartTime(NOW - 7200).setEndTime(
            state == JobState.RUNNING ? 0 : NOW - 3600).setAllocMemMb(memMb)
        .addSteps(AcctStep.newBuilder().setStepId(StepIds.BATCH).setUsage(StepUsage.newBuilder().setNtasks(1)
            .setUserCpuMs(cpuSeconds * 1000).setMaxRssKb(rssKb).setAveRssKb(rssKb)))
        .build();
  }

  @Test
  void listsTheJobsUnderTheThresholdsPerUser() {
    List<AcctJob> stored = List.of(
        job(1, "alice", 4, 4096, 4 * 3600 * 9 / 10, 4096 * 1024 * 8 / 10, JobState.COMPLETED), // 90% / 80%
        job(2, "alice", 4, 4096, 4 * 3600 / 10, 4096 * 1024 * 8 / 10, JobState.COMPLETED), // 10% CPU
        job(3, "bob", 2, 10240, 2 * 3600, 512 * 1024, JobState.TIMEOUT), // 5% memory
        job(4, "bob", 2, 1024, 0, 0, JobState.RUNNING)); // not ended: not counted
    SeffGoldenTest.Run r = SeffGoldenTest.run(stored, "--waste", "--days=3");
    assertThat(r.rc()).isZero();
    assertThat(r.asked()).singleElement().satisfies(q -> {
      assertThat(q.getStart()).isEqualTo(NOW - 3 * 86400);
      assertThat(q.getAllUsers()).isTrue();
    });
    assertThat(r.out()).isEqualTo("""
        Jobs ended in the last 3 days with CPU efficiency under 50% or memory efficiency under 50%

        User           Jobs  Wasteful  CPU Eff  Mem Eff    Idle core-h     Idle GiB-h
        alice             2         1   50.00%   80.00%           3.60           0.80
        bob               1         1  100.00%    5.00%           0.00           9.50

        JobID        User         State      Cores    Walltime  CPU Eff  Mem Eff
        2            alice        COMPLETED      4    01:00:00   10.00%   80.00%
        3            bob          TIMEOUT        2    01:00:00  100.00%    5.00%
        """);
  }

  @Test
  void refusesABadOption() {
    SeffGoldenTest.Run r = SeffGoldenTest.run(List.of(), "--waste", "--days=zero");
    assertThat(r.rc()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("seff: not a number: --days=zero\n");
  }
}

package org.corral.slurmd.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.StepUsage;
import org.corral.slurmd.cgroup.CgroupUsage;
import org.junit.jupiter.api.Test;

class StepUsageTrackerTest {
  @Test
  void keepsMaximaAveragesOverSamplesAndCumulativeCounters() {
    StepUsageTracker t = new StepUsageTracker(5, "batch");
    t.add(List.of(new TaskSample(0, 1000, 5000, 1, 100, 10, 0)));
    t.add(List.of(new TaskSample(0, 3000, 9000, 2, 300, 20, 7)));
    t.add(List.of(new TaskSample(0, 2000, 7000, 2, 250, 20, 7)));
    StepUsage u = t.report("n1", new CgroupUsage(400, 100, -1, 0), 2_800_000, List.of(12L, 11L));
    assertThat(u.getJobId()).isEqualTo(5);
    assertThat(u.getStep()).isEqualTo("batch");
    assertThat(u.getNtasks()).isEqualTo(1);
    assertThat(u.getMaxRssKb()).isEqualTo(3000);
    assertThat(u.getAveRssKb()).isEqualTo(2000);
    assertThat(u.getMaxVmsizeKb()).isEqualTo(9000);
    assertThat(u.getAveVmsizeKb()).isEqualTo(7000);
    assertThat(u.getMaxPages()).isEqualTo(2);
    // One task: the cgroup's exact CPU time wins over what /proc still shows.
    assertThat(u.getMinCpuMs()).isEqualTo(500);
    assertThat(u.getAveCpuMs()).isEqualTo(500);
    assertThat(u.getUserCpuMs()).isEqualTo(400);
    assertThat(u.getSysCpuMs()).isEqualTo(100);
    assertThat(u.getMaxDiskRead()).isEqualTo(20);
    assertThat(u.getMaxDiskWrite()).isEqualTo(7);
    assertThat(u.getMaxRssNode()).isEqualTo("n1");
    assertThat(u.getPidsList()).containsExactly(12L, 11L);
    assertThat(u.getAveCpuFreqKhz()).isEqualTo(2_800_000);
  }

  @Test
  void severalTasksGiveWhereTheExtremesWere() {
    StepUsageTracker t = new StepUsageTracker(6, "0");
    t.add(List.of(new TaskSample(0, 100, 200, 0, 50, 0, 0), new TaskSample(1, 300, 100, 0, 20, 0, 0)));
    StepUsage u = t.report("n2", CgroupUsage.UNKNOWN, 0, List.of());
    assertThat(u.getNtasks()).isEqualTo(2);
    assertThat(u.getMaxRssTask()).isEqualTo(1);
    assertThat(u.getMaxVmsizeTask()).isEqualTo(0);
    assertThat(u.getMinCpuTask()).isEqualTo(1);
    assertThat(u.getMinCpuMs()).isEqualTo(20);
    assertThat(u.getAveCpuMs()).isEqualTo(35);
    assertThat(u.getAveRssKb()).isEqualTo(200);
  }
}

package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobInfo;
import org.junit.jupiter.api.Test;

class TopOrderTest {
  private static JobInfo job(int id, int priority) {
    return JobInfo.newBuilder().setJobId(id).setPriority(priority).build();
  }

  @Test
  void theListedJobsTakeTheHighestPrioritiesInOrderAndTheOthersMoveDown() {
    JobInfo a = job(1, 300);
    JobInfo b = job(2, 200);
    JobInfo c = job(3, 100);
    List<Command> changes = TopOrder.niceChanges(List.of(c, b), List.of(a, b, c), 50);
    // 3 takes 300 (nice -200), 2 keeps 200, 1 drops to 100 (nice +200): the sum of nice is unchanged
    assertThat(changes).containsExactly(
        new Command.UpdateJob(3, 50, Map.of("nice", "-200")),
        new Command.UpdateJob(1, 50, Map.of("nice", "200")));
  }

  @Test
  void equalPrioritiesChangeNothing() {
    assertThat(TopOrder.niceChanges(List.of(job(2, 1)), List.of(job(1, 1), job(2, 1)), 50)).isEmpty();
  }
}

package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TaskExitsTest {

  private final AtomicLong now = new AtomicLong();
  private final TaskExits exits = new TaskExits(4, now::get);

  private static int code(int c) {
    return c << 8;
  }

  @Test
  void equalExitsOfOneNodeShareALine() {
    exits.exited("n1", 0, code(2));
    exits.exited("n1", 1, code(2));
    exits.exited("n2", 2, 9);
    exits.exited("n2", 3, 0);
    assertThat(exits.takeLines(true)).containsExactly(
        "srun: error: n1: tasks 0-1: Exited with exit code 2",
        "srun: error: n2: task 2: Killed");
    assertThat(exits.exitCode()).isEqualTo(137);
    assertThat(exits.allExited()).isTrue();
    assertThat(exits.killedBySlurmSignal()).isTrue();
  }

  @Test
  void aGroupIsReportedOnceItsWindowHasPassed() {
    exits.exited("n1", 0, code(1));
    assertThat(exits.takeLines(false)).isEmpty();
    now.addAndGet(TaskExits.GROUP_WINDOW_NANOS);
    exits.exited("n1", 2, code(1));
    assertThat(exits.takeLines(false)).containsExactly("srun: error: n1: tasks 0,2: Exited with exit code 1");
    assertThat(exits.takeLines(true)).isEmpty();
  }

  @Test
  void theExitCodeIsTheHighestTasksSignalsCountingAs128Plus() {
    exits.exited("n1", 0, code(5));
    exits.exited("n2", 1, 11);
    assertThat(exits.exitCode()).isEqualTo(139);
    assertThat(exits.killedBySlurmSignal()).isFalse();
    assertThat(exits.takeLines(true)).containsExactly(
        "srun: error: n1: task 0: Exited with exit code 5",
        "srun: error: n2: task 1: Segmentation fault");
  }

  @Test
  void zeroExitsAreNotReportedAndRepeatsAreIgnored() {
    exits.exited("n1", 0, 0);
    exits.exited("n1", 0, code(3));
    exits.exited("n1", 7, code(3)); // not a task of this step
    assertThat(exits.takeLines(true)).isEmpty();
    assertThat(exits.exitCode()).isZero();
    assertThat(exits.exitedTasks()).containsExactly(0);
    assertThat(exits.runningTasks()).containsExactly(1, 2, 3);
  }

  @Test
  void signalTexts() {
    assertThat(TaskExits.describe(2)).isEqualTo("Interrupt");
    assertThat(TaskExits.describe(1)).isEqualTo("Hangup");
    assertThat(TaskExits.describe(10)).isEqualTo("User defined signal 1");
    assertThat(TaskExits.describe(6)).isEqualTo("Aborted");
    assertThat(TaskExits.describe(13)).isEqualTo("Broken pipe");
    assertThat(TaskExits.describe(3)).isEqualTo("Quit");
    assertThat(TaskExits.describe(15)).isEqualTo("Terminated");
    assertThat(TaskExits.describe(0x80 | 11)).isEqualTo("Segmentation fault (core dumped)");
    assertThat(TaskExits.describe(34 + 2)).isEqualTo("Real-time signal 2");
    assertThat(TaskExits.exitCode(15)).isEqualTo(143);
  }

  @Test
  void failedTasksCountWithoutALine() {
    exits.failed(0, code(1));
    assertThat(exits.takeLines(true)).isEmpty();
    assertThat(exits.exitCode()).isEqualTo(1);
  }

  @Test
  void ranges() {
    assertThat(TaskRanges.describe(List.of(3))).isEqualTo("task 3");
    assertThat(TaskRanges.describe(List.of(0, 1, 2, 5, 7, 8))).isEqualTo("tasks 0-2,5,7-8");
  }
}

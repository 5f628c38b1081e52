package org.corral.slurmd.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.StepSpec;
import org.corral.slurmd.launch.UserLaunch;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

class StepPlanTest {
  private static final TestUsers.User USER = new TestUsers.User("alice", 1234, 1235);

  private static StepPlan plan(java.util.function.Consumer<StepSpec.Builder> changes) {
    LaunchTasksRequest request = StepRequests.request(USER, "/work", 1, changes).build();
    return StepPlan.of(request, "n1", "host", "/c", List.of(0, 1, 2, 3));
  }

  @Test
  void streamsByDefaultAndStdinGoesToTheChosenTask() {
    StepPlan plan = plan(spec -> { });
    assertThat(plan.uid()).isEqualTo(1234);
    assertThat(plan.umask()).isEqualTo("0022");
    assertThat(plan.files()).isEmpty();
    StepPlan.TaskPlan t0 = plan.tasks().get(0);
    StepPlan.TaskPlan t1 = plan.tasks().get(1);
    assertThat(t0.stdOut()).isEqualTo(UserLaunch.INHERIT);
    assertThat(t0.stdErr()).isEqualTo(UserLaunch.INHERIT);
    assertThat(t0.stdIn()).isEqualTo(UserLaunch.INHERIT);
    assertThat(t0.readsSrunStdin()).isTrue();
    assertThat(t1.readsSrunStdin()).isFalse();
    assertThat(t1.stdIn()).isEqualTo("/dev/null");
    assertThat(t1.words()).endsWith("env").contains("SLURM_PROCID=1");
    assertThat(plan(spec -> spec.setStdinTask(-1)).tasks()).allMatch(StepPlan.TaskPlan::readsSrunStdin);
    assertThat(plan(spec -> spec.setStdinTask(-2)).tasks()).noneMatch(StepPlan.TaskPlan::readsSrunStdin);
  }

  @Test
  void filePatternsArePerTaskAndPreparedOnce() {
    StepPlan plan = plan(spec -> spec.setStdOut("out-%t-%n.txt").setStdIn("/in/%j"));
    assertThat(plan.tasks().get(1).stdOut()).isEqualTo("/work/out-1-0.txt");
    assertThat(plan.tasks().get(1).stdErr()).isEmpty(); // with stdout, as in Slurm
    assertThat(plan.tasks().get(1).stdIn()).isEqualTo("/in/42");
    assertThat(plan.files()).containsExactly(
        new StepPlan.FileCheck("stdin", "/in/42", "read"),
        new StepPlan.FileCheck("stdout", "/work/out-0-0.txt", "truncate"),
        new StepPlan.FileCheck("stdout", "/work/out-1-0.txt", "truncate"));
    StepPlan shared = plan(spec -> spec.setStdOut("all.txt").setStdErr("err.txt").setOpenMode("append"));
    assertThat(shared.files()).containsExactly(
        new StepPlan.FileCheck("stdout", "/work/all.txt", "append"),
        new StepPlan.FileCheck("stderr", "/work/err.txt", "append"));
  }

  @Test
  void aTaskNumberOrNoneSelectsWhatIsStreamed() {
    StepPlan plan = plan(spec -> spec.setStdOut("1").setStdErr("none"));
    assertThat(plan.tasks().get(0).stdOut()).isEqualTo("/dev/null");
    assertThat(plan.tasks().get(1).stdOut()).isEqualTo(UserLaunch.INHERIT);
    assertThat(plan.tasks()).allMatch(t -> t.stdErr().equals("/dev/null"));
    assertThat(plan.files()).isEmpty();
  }

  @Test
  void multiProgPtyAndBindingShapeTheCommand() {
    StepPlan multi = plan(spec -> spec.clearArgv().setMultiProg("0 echo zero\n* echo rank %t\n"));
    assertThat(multi.tasks().get(0).words()).endsWith("echo", "zero");
    assertThat(multi.tasks().get(1).words()).endsWith("echo", "rank", "1");
    StepPlan pty = plan(spec -> spec.setPty(true).clearArgv().addAllArgv(List.of("sh", "-c", "echo 'hi'")));
    assertThat(pty.tasks().get(0).words()).endsWith("/usr/bin/script", "-q", "-e", "-c",
        "exec 'sh' '-c' 'echo '\\''hi'\\'''", "/dev/null");
    assertThat(pty.tasks().get(1).words()).endsWith("sh", "-c", "echo 'hi'");
    assertThat(pty.tasks().get(1).stdOut()).isEqualTo("/dev/null");
    assertThat(pty.tasks().get(0).stdOut()).isEqualTo(UserLaunch.INHERIT);
    StepPlan bound = plan(spec -> spec.setCpuBind("cores"));
    assertThat(bound.tasks().get(1).words()).endsWith("/usr/bin/taskset", "-c", "1", "env");
    StepPlan odd = plan(spec -> spec.clearArgv().addArgv("A=B"));
    // Executed as it is (no env(1) to mistake it for a variable): Slurm's execve() error follows.
    assertThat(odd.tasks().get(0).command()).containsExactly("A=B");
  }

  @Test
  void badRequestsSayWhy() {
    assertThatThrownBy(() -> plan(spec -> spec.clearArgv())).hasMessage("no command to run");
    assertThatThrownBy(() -> plan(spec -> spec.setWorkDir("rel"))).hasMessageContaining("not an absolute path");
    assertThatThrownBy(() -> plan(spec -> spec.setCpuBind("sockets"))).hasMessageContaining("not supported");
    assertThatThrownBy(() -> plan(spec -> spec.clearArgv().setMultiProg("5 true\n")))
        .hasMessage("No executable program specified for this task");
  }
}

package org.corral.slurmd.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.IoHello;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.SignalTasksRequest;
import org.corral.protocol.msg.StepFinishedRequest;
import org.corral.protocol.msg.StepSpec;
import org.corral.testkit.FreePorts;
import org.corral.testkit.TestUsers;
import org.corral.testkit.TestUsers.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real tasks as real users, talking to an in-test srun over the step I/O protocol: needs root (skipped otherwise). */
class StepManagerTest {
  private static final User ROOT = new User("root", 0, 0);
  /** The job's CPUs on this node: the first two this test may use (or one). */
  private static final List<Integer> CPUS = CpuBinding.daemonCpus().subList(0, Math.min(2, CpuBinding.daemonCpus().size()));

  @TempDir Path tmp;
  private Path work;
  private User alice;
  private final LinkedBlockingQueue<StepFinishedRequest> reports = new LinkedBlockingQueue<>();
  private StepManager steps;
  private FakeSrun srun;

  @BeforeEach
  void setUp() throws IOException {
    assumeTrue(TestUsers.canCreate(), "launching tasks as other users needs root");
    alice = TestUsers.ensure(TestUsers.ALICE);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    work = Files.createDirectories(tmp.resolve("work"));
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    steps = new StepManager(tmp.resolve("spool"), "n1", "/etc/corral/slurm.conf", Clock.systemUTC(), 1,
        reports::add, request -> CPUS);
    srun = new FakeSrun();
  }

  @AfterEach
  void tearDown() throws IOException {
    if (steps != null) {
      steps.close(); // kills whatever a failed test left running
    }
    if (srun != null) {
      srun.close();
    }
  }

  private LaunchTasksRequest request(User user, Consumer<StepSpec.Builder> spec) {
    return StepRequests.request(user, work.toString(), srun.port(), spec).build();
  }

  private StepFinishedRequest report() throws InterruptedException {
    StepFinishedRequest r = reports.poll(30, TimeUnit.SECONDS);
    assertThat(r).as("step end report").isNotNull();
    return r;
  }

  @Test
  void runsTheTasksAsTheUserWithTheirEnvironmentAndStreamsTheirOutput() throws Exception {
    steps.launch(request(alice, spec -> spec.clearArgv().addAllArgv(List.of("sh", "-c",
        "id -u; echo P=$SLURM_PROCID L=$SLURM_LOCALID G=$SLURM_GTIDS N=$SLURMD_NODENAME C=$SLURM_CONF;"
            + " pwd; [ \"$SLURM_TASK_PID\" = $$ ] && echo pid-ok; echo err-$SLURM_PROCID >&2"))));

    StepFinishedRequest end = report();
    assertThat(end.getJobId()).isEqualTo(42);
    assertThat(end.getStepId()).isZero();
    assertThat(end.getNodeName()).isEqualTo("n1");
    assertThat(end.getLaunchFailed()).isFalse();
    assertThat(end.getExitStatus()).isZero();
    IoHello hello = srun.frames().get(0).getHello();
    assertThat(hello.getJobId()).isEqualTo(42);
    assertThat(hello.getNodeName()).isEqualTo("n1");
    assertThat(hello.getTaskIdsList()).containsExactly(0, 1);
    assertThat(hello.getIoKey().toByteArray()).isEqualTo(StepRequests.IO_KEY);
    for (int task = 0; task < 2; task++) {
      assertThat(srun.output(task, false)).isEqualTo(alice.uid() + "\nP=" + task + " L=" + task
          + " G=0,1 N=n1 C=/etc/corral/slurm.conf\n" + work + "\npid-ok\n");
      assertThat(srun.output(task, true)).isEqualTo("err-" + task + "\n");
      assertThat(srun.awaitExit(task).getTaskExit().getStatus()).isZero();
    }
    srun.awaitClosed(1);
    assertThat(Files.list(tmp.resolve("spool/steps")).toList()).as("step spool emptied").isEmpty();
  }

  @Test
  void theEndReportCarriesWhatTheTasksUsedEvenBetweenSamples() throws Exception {
    steps.launch(request(alice, spec -> spec.clearArgv().addAllArgv(List.of("perl", "-e",
        "$x = 'a' x 30000000; $t = times; 1 while times - $t < 0.3"))));
    StepFinishedRequest end = report();
    assertThat(end.getExitStatus()).isZero();
    assertThat(end.getUsage().getMaxRssKb()).isGreaterThan(20_000);
    assertThat(end.getUsage().getUserCpuMs() + end.getUsage().getSysCpuMs()).isGreaterThanOrEqualTo(2 * 250);
    srun.awaitClosed(1);
  }

  @Test
  void tellsAnExitCodeFromADeathBySignal() throws Exception {
    steps.launch(request(ROOT, spec -> spec.clearArgv().setMultiProg("0 sh -c 'exit 137'\n1 sh -c 'kill -9 $$'\n")));

    StepFinishedRequest end = report();
    assertThat(srun.awaitExit(0).getTaskExit().getStatus()).isEqualTo(137 << 8);
    assertThat(srun.awaitExit(1).getTaskExit().getStatus()).isEqualTo(9);
    assertThat(end.getExitStatus()).isEqualTo(137 << 8);
  }

  @Test
  void aCommandThatCannotRunIsReportedAsSlurmsStepDaemonDoesWithTheErrnoAsExitCode() throws Exception {
    Files.writeString(work.resolve("noexec.sh"), "echo x\n");
    steps.launch(request(alice, spec -> spec.clearArgv()
        .setMultiProg("0 no_such_command_xyz\n1 ./noexec.sh\n")));

    report();
    assertThat(srun.awaitExit(0).getTaskExit().getStatus()).isEqualTo(2 << 8);
    assertThat(srun.awaitExit(1).getTaskExit().getStatus()).isEqualTo(13 << 8);
    assertThat(srun.output(0, true))
        .isEqualTo("slurmstepd-n1: error: execve(): no_such_command_xyz: No such file or directory\n");
    assertThat(srun.output(1, true))
        .isEqualTo("slurmstepd-n1: error: execve(): " + work + "/./noexec.sh: Permission denied\n");
  }

  @Test
  void aCommandNamedLikeAVariableIsExecutedAsItIsAndFailsAsInSlurm() throws Exception {
    // Slurm 22.05: srun -n1 A=b prints "execve(): A=b: No such file or directory", exit code 2.
    steps.launch(request(alice, spec -> spec.clearArgv().addArgv("A=b")));

    report();
    assertThat(srun.awaitExit(0).getTaskExit().getStatus()).isEqualTo(2 << 8);
    assertThat(srun.output(0, true)).isEqualTo("slurmstepd-n1: error: execve(): A=b: No such file or directory\n");
  }

  @Test
  void forwardsStdinToItsTaskAndASecondTaskStreamsAfterTheFirstExited() throws Exception {
    // Task 1 reads srun's stdin; task 0 ends at once. Task 1's output must still flow after that.
    steps.launch(request(ROOT, spec -> spec.setStdinTask(1).clearArgv()
        .setMultiProg("0 true\n1 sh -c 'echo before; read line; echo \"after $line\"; cat'\n")));

    srun.awaitExit(0);
    srun.await(f -> f.hasStdout() && f.getStdout().getTask() == 1);
    assertThat(srun.output(1, false)).isEqualTo("before\n");
    srun.stdin(1, "go\n");
    srun.await(f -> f.hasStdout() && f.getStdout().getData().toStringUtf8().contains("after"));
    srun.stdin(-1, "rest\n");
    srun.stdinEof(-1);
    assertThat(srun.awaitExit(1).getTaskExit().getStatus()).isZero();
    assertThat(srun.output(1, false)).isEqualTo("before\nafter go\nrest\n");
    assertThat(report().getExitStatus()).isZero();
  }

  @Test
  void writesToPerTaskFilesOwnedByTheUserInsteadOfStreaming() throws Exception {
    Files.writeString(work.resolve("in-1.txt"), "from a file\n");
    steps.launch(request(alice, spec -> spec.setStdOut("out-%t-%n-%j.%s.txt").setStdIn("in-1.txt").clearArgv()
        .addAllArgv(List.of("sh", "-c", "echo task $SLURM_PROCID; cat; echo e >&2"))));

    assertThat(report().getExitStatus()).isZero();
    for (int task = 0; task < 2; task++) {
      Path out = work.resolve("out-" + task + "-0-42.0.txt");
      assertThat(Files.readString(out)).isEqualTo("task " + task + "\nfrom a file\ne\n");
      assertThat(Files.getOwner(out).getName()).isEqualTo(TestUsers.ALICE);
      assertThat(srun.awaitExit(task).getTaskExit().getStatus()).isZero();
    }
    assertThat(srun.frames()).noneMatch(f -> f.hasStdout() || f.hasStderr());
  }

  @Test
  void tasksSharingAnOutputFileDoNotOverwriteEachOther() throws Exception {
    Files.writeString(work.resolve("shared.txt"), "old content that must go\n");
    steps.launch(request(ROOT, spec -> spec.setStdOut("shared.txt").clearArgv()
        .addAllArgv(List.of("sh", "-c", "echo line-$SLURM_PROCID"))));

    assertThat(report().getExitStatus()).isZero();
    assertThat(Files.readAllLines(work.resolve("shared.txt"))).containsExactlyInAnyOrder("line-0", "line-1");
  }

  @Test
  void anOutputFileThatCannotBeOpenedFailsTheLaunchWithSlurmsMessage() throws Exception {
    steps.launch(request(alice, spec -> spec.setStdOut("/nonexistent/out-%t")));

    StepFinishedRequest end = report();
    assertThat(end.getLaunchFailed()).isTrue();
    assertThat(end.getMessage()).isEqualTo("Could not open stdout file: No such file or directory");
    IoFrame failed = srun.await(IoFrame::hasLaunchFailed);
    assertThat(failed.getLaunchFailed().getMessage()).isEqualTo(end.getMessage());
    assertThat(failed.getLaunchFailed().getTaskIdsList()).containsExactly(0, 1);
    assertThat(srun.frames()).noneMatch(IoFrame::hasTaskExit);
  }

  @Test
  void anUnreachableSrunMeansNoTasksAndAFailedLaunch() throws Exception {
    Path marker = work.resolve("ran");
    LaunchTasksRequest request = StepRequests.request(ROOT, work.toString(), FreePorts.one(), spec -> spec.clearArgv()
        .addAllArgv(List.of("touch", marker.toString()))).build();
    steps.launch(request);

    StepFinishedRequest end = report();
    assertThat(end.getLaunchFailed()).isTrue();
    assertThat(end.getMessage()).startsWith("cannot connect to srun at 127.0.0.1:");
    assertThat(marker).doesNotExist();
  }

  @Test
  void aRepeatedLaunchOrderIsIgnored() throws Exception {
    LaunchTasksRequest request = request(ROOT, spec -> spec.clearArgv().addAllArgv(List.of("sleep", "0.3")));
    steps.launch(request);
    steps.launch(request);
    report();
    steps.launch(request);
    assertThat(reports.poll(1, TimeUnit.SECONDS)).isNull();
    assertThat(srun.connectionCount()).isEqualTo(1);
  }

  @Test
  void signalsReachTheTasksAndTerminateEndsThem() throws Exception {
    steps.launch(request(ROOT, spec -> spec.clearArgv().addAllArgv(List.of("sh", "-c",
        "trap 'echo got-usr1; exit 3' USR1; echo ready; while :; do sleep 0.05; done"))));
    srun.await(f -> f.hasStdout() && f.getStdout().getTask() == 0);
    srun.await(f -> f.hasStdout() && f.getStdout().getTask() == 1);
    steps.signal(SignalTasksRequest.newBuilder().setJobId(42).setStepId(0).setSignal(10).build());

    assertThat(srun.awaitExit(0).getTaskExit().getStatus()).isEqualTo(3 << 8);
    assertThat(srun.awaitExit(1).getTaskExit().getStatus()).isEqualTo(3 << 8);
    assertThat(srun.output(0, false)).isEqualTo("ready\ngot-usr1\n");
    report();

    steps.launch(StepRequests.request(ROOT, work.toString(), srun.port(), spec -> spec.clearArgv()
        .addAllArgv(List.of("sleep", "100"))).setStep(request(ROOT, s -> { }).getStep().toBuilder().setStepId(1)).build());
    Thread.sleep(300);
    steps.signalJob(42, 0, 5, false);
    StepFinishedRequest end = report();
    assertThat(end.getStepId()).isEqualTo(1);
    assertThat(end.getExitStatus()).isEqualTo(15);
  }

  @Test
  void srunsSignalFrameReachesTheTasks() throws Exception {
    steps.launch(request(ROOT, spec -> spec.clearArgv().addAllArgv(List.of("sh", "-c", "echo up; exec sleep 100"))));
    srun.await(f -> f.hasStdout() && f.getStdout().getTask() == 1);
    srun.signal(2);
    assertThat(srun.awaitExit(0).getTaskExit().getStatus()).isEqualTo(2);
    assertThat(report().getExitStatus()).isEqualTo(2);
  }

  @Test
  void taskZeroRunsOnAPseudoTerminalWithPty() throws Exception {
    steps.launch(request(alice, spec -> spec.setPty(true).clearArgv()
        .addAllArgv(List.of("sh", "-c", "tty; [ -t 0 ] && echo stdin-is-a-tty; exit 4"))));

    assertThat(srun.awaitExit(0).getTaskExit().getStatus()).isEqualTo(4 << 8);
    assertThat(srun.output(0, false)).startsWith("/dev/pts/").contains("stdin-is-a-tty\r\n");
    assertThat(srun.output(1, false)).isEmpty(); // --pty: the other tasks' output goes to /dev/null
    assertThat(srun.awaitExit(1).getTaskExit().getStatus()).isEqualTo(4 << 8);
    report();
  }

  @Test
  void aMissingWorkDirectoryIsReportedAndTheTasksRunInTmp() throws Exception {
    // srun -n2 -o FILE --chdir=/nonexistent pwd on the reference: "/tmp" in the files, and on srun's
    // stderr one line from the step daemon plus one per task, whatever -o says.
    steps.launch(request(alice, spec -> spec.setWorkDir("/nonexistent").setStdOut(work + "/cd-%t.txt").clearArgv()
        .addArgv("pwd")));
    assertThat(report().getExitStatus()).isZero();
    String line = "slurmstepd-n1: error: couldn't chdir to `/nonexistent': No such file or directory: going to /tmp instead\n";
    assertThat(srun.output(0, true)).isEqualTo(line.repeat(2));
    assertThat(srun.output(1, true)).isEqualTo(line);
    assertThat(Files.readString(work.resolve("cd-0.txt"))).isEqualTo("/tmp\n");
    assertThat(Files.readString(work.resolve("cd-1.txt"))).isEqualTo("/tmp\n");
  }

  @Test
  void cpuBindCoresPinsEachTaskToItsOwnCpu() throws Exception {
    steps.launch(request(alice, spec -> spec.setCpuBind("cores").clearArgv()
        .addAllArgv(List.of("sh", "-c", "grep Cpus_allowed_list: /proc/self/status"))));
    assertThat(report().getExitStatus()).isZero();
    for (int task = 0; task < 2; task++) {
      assertThat(srun.output(task, false)).isEqualTo("Cpus_allowed_list:\t" + CPUS.get(task % CPUS.size()) + "\n");
    }
  }

  @Test
  void pmi2TasksSeeTheirRankAndTheStepSize() throws Exception {
    steps.launch(request(ROOT, spec -> spec.setMpi("pmi2").clearArgv()
        .addAllArgv(List.of("sh", "-c", "echo $PMI_RANK/$PMI_SIZE/$PMI_JOBID"))));
    report();
    assertThat(srun.output(1, false)).isEqualTo("1/3/42.0\n");
  }

  @Test
  void aUserUnknownHereFailsTheLaunch() throws Exception {
    steps.launch(request(new User("ghost", 3_999_999, 3_999_999), spec -> { }));
    StepFinishedRequest end = report();
    assertThat(end.getLaunchFailed()).isTrue();
    assertThat(end.getMessage()).isEqualTo("user id 3999999 is unknown on n1");
    assertThat(srun.await(IoFrame::hasLaunchFailed).getLaunchFailed().getMessage()).isEqualTo(end.getMessage());
  }
}

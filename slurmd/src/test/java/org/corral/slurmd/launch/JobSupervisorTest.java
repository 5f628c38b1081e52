package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.testkit.TestUsers;
import org.corral.testkit.TestUsers.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real jobs as real users: needs root (skipped otherwise). */
class JobSupervisorTest {
  @TempDir Path tmp;
  private Path spool;
  private Path work;
  private User alice;
  private User bob;
  private final JobRecorder recorder = new JobRecorder();
  private JobSupervisor supervisor;

  @BeforeEach
  void setUp() throws IOException {
    assumeTrue(TestUsers.canCreate(), "launching jobs as other users needs root");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    spool = tmp.resolve("spool");
    work = Files.createDirectories(tmp.resolve("work"));
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    supervisor = new JobSupervisor(spool, "n1", Clock.systemUTC(), recorder);
  }

  @AfterEach
  void tearDown() throws IOException {
    if (supervisor != null) {
      supervisor.close();
    }
    // A failed test must not leave its jobs running: kill every job group still recorded.
    SpoolCleanup.killRunningJobs(spool);
  }

  @Test
  void runsTheScriptAsTheUserInTheWorkDirectoryWithItsOutputFile() throws Exception {
    supervisor.launch(request(11, alice, "#!/bin/sh\nid -u\nid -g\npwd\necho to-stderr >&2\n",
        List.of(), spec -> spec.setStdOut("out-%j-%u-%x.txt")));

    JobRecorder.Ended end = recorder.await(11);
    assertThat(end.launchFailed()).isFalse();
    assertThat(end.exitStatus()).isZero();
    Path out = work.resolve("out-11-corral-alice-testjob.txt");
    assertThat(Files.readString(out)).isEqualTo(alice.uid() + "\n" + alice.gid() + "\n" + work + "\nto-stderr\n");
    assertThat(Files.getOwner(out).getName()).isEqualTo(TestUsers.ALICE);
    Path script = spool.resolve("job00011/slurm_script");
    assertThat(Files.getOwner(script).getName()).isEqualTo(TestUsers.ALICE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(script))).isEqualTo("r-x------");
  }

  @Test
  void writesToSlurmJobIdOutByDefaultAndStderrToItsOwnFileWhenAsked() throws Exception {
    supervisor.launch(request(12, alice, "#!/bin/sh\necho out\necho err >&2\n", List.of(), spec -> { }));
    supervisor.launch(request(13, alice, "#!/bin/sh\necho out\necho err >&2\n", List.of(),
        spec -> spec.setStdErr("err-%j.txt")));
    recorder.await(12);
    recorder.await(13);

    assertThat(Files.readString(work.resolve("slurm-12.out"))).isEqualTo("out\nerr\n");
    assertThat(Files.readString(work.resolve("slurm-13.out"))).isEqualTo("out\n");
    assertThat(Files.readString(work.resolve("err-13.txt"))).isEqualTo("err\n");
  }

  @Test
  void readsStdinFromTheGivenFile() throws Exception {
    Files.writeString(work.resolve("in-33.txt"), "from stdin\n");
    supervisor.launch(request(33, alice, "#!/bin/sh\ncat\n", List.of(), spec -> spec.setStdIn("in-%j.txt")));

    assertThat(recorder.await(33).exitStatus()).isZero();
    assertThat(Files.readString(work.resolve("slurm-33.out"))).isEqualTo("from stdin\n");
  }

  @Test
  void givesTheJobTheSubmittedEnvironmentExactlyPlusSlurmVariables() throws Exception {
    List<String> submitted = List.of(
        "PLAIN=value", "SPACES=a  b c ", "QUOTES=it's \"q\" `x` $HOME \\n \\", "NEWLINES=one\ntwo\n",
        "BASH_FUNC_f%%=() {  echo hi\n}", "EMPTY=", "SLURM_UMASK=0077", "SLURM_JOB_ID=999", "HOSTNAME=elsewhere");
    supervisor.launch(request(14, alice, "#!/bin/sh\ncat /proc/$$/environ\n", submitted, spec -> { }));

    assertThat(recorder.await(14).exitStatus()).isZero();
    Path out = work.resolve("slurm-14.out");
    Map<String, String> env = parseEnviron(Files.readString(out));
    assertThat(env).containsAllEntriesOf(Map.of(
        "PLAIN", "value", "SPACES", "a  b c ", "QUOTES", "it's \"q\" `x` $HOME \\n \\",
        "NEWLINES", "one\ntwo\n", "BASH_FUNC_f%%", "() {  echo hi\n}", "EMPTY", ""));
    Map<String, String> slurm = new HashMap<>();
    slurm.putAll(Map.of("SLURM_JOB_ID", "14", "SLURM_JOBID", "14", "SLURM_JOB_NAME", "testjob",
        "SLURM_JOB_NODELIST", "n1", "SLURM_NODELIST", "n1", "SLURM_JOB_NUM_NODES", "1", "SLURM_NNODES", "1",
        "SLURM_CPUS_ON_NODE", "1", "SLURM_MEM_PER_CPU", "100", "SLURM_SUBMIT_DIR", work.toString()));
    slurm.putAll(Map.of("SLURM_SUBMIT_HOST", "subhost", "SLURM_JOB_PARTITION", "debug",
        "SLURM_CLUSTER_NAME", "testcluster", "SLURMD_NODENAME", "n1", "SLURM_PROCID", "0", "SLURM_LOCALID", "0",
        "SLURM_NODEID", "0", "SLURM_GTIDS", "0", "SLURM_JOB_USER", TestUsers.ALICE,
        "SLURM_JOB_UID", Integer.toString(alice.uid())));
    slurm.putAll(Map.of("SLURM_JOB_GID", Integer.toString(alice.gid()), "SLURM_JOB_CPUS_PER_NODE", "1",
        "SLURM_TASKS_PER_NODE", "1", "SLURM_TOPOLOGY_ADDR", "n1", "ENVIRONMENT", "BATCH", "HOSTNAME", "n1"));
    assertThat(env).containsAllEntriesOf(slurm);
    assertThat(env.get("SLURM_TASK_PID")).isEqualTo(Long.toString(JobDirectory.in(spool, 14).processGroup().getAsLong()));
    assertThat(env).doesNotContainKeys("SLURM_UMASK", "SLURM_CPUS_PER_TASK", "SLURM_NTASKS", "SLURM_NPROCS");
    // Nothing of the daemon's own environment (PATH, LC_ALL, ...) leaks into the job.
    assertThat(env.keySet()).allMatch(name -> name.startsWith("SLURM") || submitted.stream()
        .anyMatch(e -> e.startsWith(name + "=")) || name.equals("ENVIRONMENT"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-------");
  }

  @Test
  void theEndReportCarriesWhatAShortJobUsedBetweenSamples() throws Exception {
    // 0.4 s of CPU and ~40 MB resident, over well before the first sample would be taken
    supervisor.launch(request(18, alice, "#!/bin/sh\nexec perl -e '$x = \"a\" x 40000000; "
        + "$t = times; 1 while times - $t < 0.4'\n", List.of(), spec -> { }));
    assertThat(recorder.await(18).exitStatus()).isZero();
    org.corral.protocol.msg.StepUsage used = recorder.usage(18);
    assertThat(used).isNotNull();
    assertThat(used.getUserCpuMs() + used.getSysCpuMs()).isGreaterThanOrEqualTo(350);
    assertThat(used.getMaxRssKb()).isGreaterThan(30_000);
  }

  @Test
  void reportsExitCodesAndSignalsWaitStyleWithoutConfusingThem() throws Exception {
    supervisor.launch(request(15, alice, "#!/bin/sh\nexit 3\n", List.of(), spec -> { }));
    supervisor.launch(request(16, alice, "#!/bin/sh\nexit 138\n", List.of(), spec -> { }));
    supervisor.launch(request(17, alice, "#!/bin/sh\nkill -USR1 $$\n", List.of(), spec -> { }));

    assertThat(recorder.await(15).exitStatus()).isEqualTo(3 << 8);
    assertThat(recorder.await(16).exitStatus()).isEqualTo(138 << 8);
    assertThat(recorder.await(17).exitStatus()).isEqualTo(10);
  }

  @Test
  void terminateSendsSigtermToTheWholeJob() throws Exception {
    supervisor.launch(request(18, alice, "#!/bin/sh\nsleep 60 &\necho $!\nwait\n", List.of(), spec -> { }));
    Path out = work.resolve("slurm-18.out");
    waitFor(() -> readOrEmpty(out).endsWith("\n"));
    long sleeper = Long.parseLong(readOrEmpty(out).strip());

    supervisor.signal(18, 0, 30);

    JobRecorder.Ended end = recorder.await(18);
    assertThat(end.exitStatus()).isEqualTo(15);
    waitFor(() -> ProcessHandle.of(sleeper).isEmpty());
    assertThat(supervisor.runningJobs()).doesNotContain(18);
  }

  @Test
  void aJobIgnoringSigtermIsKilledAfterKillWait() throws Exception {
    supervisor.launch(request(19, alice, "#!/bin/sh\ntrap '' TERM\necho ready\nwhile :; do sleep 1; done\n",
        List.of(), spec -> { }));
    waitFor(() -> readOrEmpty(work.resolve("slurm-19.out")).contains("ready"));

    long start = System.nanoTime();
    supervisor.signal(19, 0, 1);

    assertThat(recorder.await(19).exitStatus()).isEqualTo(9);
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(900_000_000L);
  }

  @Test
  void sendsAnyGivenSignalToTheJob() throws Exception {
    supervisor.launch(request(20, alice, "#!/bin/sh\necho ready\nsleep 60\n", List.of(), spec -> { }));
    waitFor(() -> readOrEmpty(work.resolve("slurm-20.out")).contains("ready"));

    supervisor.signal(20, 12, 0);

    assertThat(recorder.await(20).exitStatus()).isEqualTo(12);
  }

  @Test
  void aRestartedSupervisorReAdoptsRunningJobsAndReportsThoseThatEnded() throws Exception {
    supervisor.launch(request(21, alice, "#!/bin/sh\nwhile [ ! -e go ]; do sleep 0.05; done\nexit 7\n",
        List.of(), spec -> { }));
    supervisor.launch(request(22, alice, "#!/bin/sh\necho ready\nsleep 60\n", List.of(), spec -> { }));
    supervisor.launch(request(23, alice, "#!/bin/sh\nwhile [ ! -e go23 ]; do sleep 0.05; done\nexit 5\n",
        List.of(), spec -> { }));
    waitFor(() -> JobDirectory.in(spool, 21).processGroup().isPresent() && JobDirectory.in(spool, 23).processGroup().isPresent());
    waitFor(() -> readOrEmpty(work.resolve("slurm-22.out")).contains("ready"));
    supervisor.close(); // slurmd goes down; its jobs do not
    Files.createFile(work.resolve("go23"));
    waitFor(() -> JobDirectory.in(spool, 23).hasEnded());

    JobRecorder second = new JobRecorder();
    try (JobSupervisor restarted = new JobSupervisor(spool, "n1", Clock.systemUTC(), second)) {
      restarted.recover();
      assertThat(second.await(23).exitStatus()).isEqualTo(5 << 8);
      assertThat(restarted.runningJobs()).containsExactlyInAnyOrder(21, 22);

      Files.createFile(work.resolve("go"));
      assertThat(second.await(21).exitStatus()).isEqualTo(7 << 8);
      restarted.signal(22, 0, 30);
      assertThat(second.await(22).exitStatus()).isEqualTo(15);
      assertThat(restarted.runningJobs()).isEmpty();
    }
    assertThat(second.calls()).isEqualTo(3);
    assertThat(recorder.calls()).isZero();
  }

  @Test
  void aJobWhoseWrapperVanishedIsKilledAndReported() throws Exception {
    supervisor.launch(request(24, alice, "#!/bin/sh\necho ready\nsleep 60\n", List.of(), spec -> { }));
    waitFor(() -> readOrEmpty(work.resolve("slurm-24.out")).contains("ready")
        && JobDirectory.in(spool, 24).processGroup().isPresent());
    supervisor.close();
    long wrapper = JobDirectory.in(spool, 24).wrapperRecord().orElseThrow()[0];
    long job = JobDirectory.in(spool, 24).processGroup().getAsLong();
    ProcessHandle.of(wrapper).orElseThrow().destroyForcibly();
    waitFor(() -> ProcessHandle.of(wrapper).isEmpty());

    JobRecorder second = new JobRecorder();
    try (JobSupervisor restarted = new JobSupervisor(spool, "n1", Clock.systemUTC(), second)) {
      restarted.recover();
      JobRecorder.Ended end = second.await(24);
      assertThat(end.exitStatus()).isEqualTo(9);
      assertThat(end.message()).contains("without recording");
      waitFor(() -> ProcessHandle.of(job).isEmpty());
    }
  }

  @Test
  void aUserCannotMakeTheLaunchWriteIntoAnotherUsersFile() throws Exception {
    Path shared = work.resolve("alice-owns-this.out");
    supervisor.launch(request(25, alice, "#!/bin/sh\necho alice data\n", List.of(),
        spec -> spec.setStdOut(shared.toString())));
    recorder.await(25);

    supervisor.launch(request(26, bob, "#!/bin/sh\necho bob was here\n", List.of(),
        spec -> spec.setStdOut(shared.toString()).setOpenMode("append")));

    JobRecorder.Ended end = recorder.await(26);
    assertThat(end.launchFailed()).isTrue();
    assertThat(end.message()).isEqualTo("Could not open stdout file " + shared + ": Permission denied");
    assertThat(Files.readString(shared)).isEqualTo("alice data\n");
    assertThat(supervisor.runningJobs()).isEmpty();
  }

  @Test
  void anUnknownUserOrABadRequestFailsTheLaunch() throws Exception {
    User ghost = new User("corral-ghost", 54321, 54321);
    supervisor.launch(request(27, ghost, "#!/bin/sh\necho should not run\n", List.of(), spec -> { }));
    supervisor.launch(request(28, alice, "", List.of(), spec -> { }));
    supervisor.launch(request(29, alice, "#!/bin/sh\ntrue\n", List.of(), spec -> spec.setOpenMode("sideways")));

    JobRecorder.Ended ghostEnd = recorder.await(27);
    assertThat(ghostEnd.launchFailed()).isTrue();
    assertThat(ghostEnd.message()).contains("54321");
    assertThat(work.resolve("slurm-27.out")).doesNotExist();
    assertThat(recorder.await(28).message()).isEqualTo("job 28 has no batch script");
    assertThat(recorder.await(29).message()).isEqualTo("unknown open mode: sideways");
  }

  @Test
  void theJobHasExactlyTheUsersGroupsAndDefaultSignals() throws Exception {
    run(List.of("/usr/sbin/groupadd", "-f", "corral-shared"));
    run(List.of("/usr/sbin/usermod", "-aG", "corral-shared", TestUsers.ALICE));
    supervisor.launch(request(32, alice, "#!/bin/sh\nid -G\nkill -INT $$\necho survived SIGINT\n",
        List.of(), spec -> spec.setStdOut("groups.out")));

    JobRecorder.Ended end = recorder.await(32);
    // Not root's groups, nor only the primary one: what initgroups(3) gives the user.
    List<String> expected = List.of(run(List.of("id", "-G", TestUsers.ALICE)).strip().split(" "));
    List<String> lines = Files.readAllLines(work.resolve("groups.out"));
    assertThat(List.of(lines.get(0).split(" "))).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(expected).hasSizeGreaterThan(1);
    // SIGINT reaches the job with its default action (the launcher's dispositions do not).
    assertThat(lines).hasSize(1);
    assertThat(end.exitStatus()).isEqualTo(2);
  }

  @Test
  void aJobStillStartsAfterTheNodesLauncherDied() throws Exception {
    ProcessHandle launcher = ProcessHandle.current().children()
        .filter(p -> p.info().commandLine().orElse("").contains(NodeLauncher.SCRIPT))
        .findFirst().orElseThrow();
    launcher.destroyForcibly();
    launcher.onExit().get();

    supervisor.launch(request(33, alice, "#!/bin/sh\necho after\n", List.of(), spec -> { }));
    assertThat(recorder.await(33).exitStatus()).isZero();
    assertThat(Files.readString(work.resolve("slurm-33.out"))).isEqualTo("after\n");
  }

  @Test
  void aSpoolDirectoryWithASpaceInItsPathWorks() throws Exception {
    Path spaced = tmp.resolve("spool dir");
    try (JobSupervisor other = new JobSupervisor(spaced, "n1", Clock.systemUTC(), recorder)) {
      other.launch(request(34, alice, "#!/bin/sh\necho spaced\n", List.of(), spec -> { }));
      assertThat(recorder.await(34).exitStatus()).isZero();
      assertThat(Files.readString(work.resolve("slurm-34.out"))).isEqualTo("spaced\n");
    } finally {
      SpoolCleanup.killRunningJobs(spaced);
    }
  }

  @Test
  void jobsLaunchedInABurstReadTheirStdinFromItsStart() throws Exception {
    // The launcher must not leave its own input's read position on a job's stdin file.
    Path in = work.resolve("burst.in");
    Files.writeString(in, "all of it\n");
    for (int id = 40; id < 48; id++) {
      supervisor.launch(request(id, alice, "#!/bin/sh\ncat\n", List.of(), spec -> spec.setStdIn(in.toString())));
    }
    for (int id = 40; id < 48; id++) {
      assertThat(recorder.await(id).exitStatus()).isZero();
      assertThat(Files.readString(work.resolve("slurm-" + id + ".out"))).as("job %d", id).isEqualTo("all of it\n");
    }
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as("%s: %s", command, out).isZero();
    return out;
  }

  @Test
  void ldPreloadFromTheJobNeverReachesARootProcess() throws Exception {
    String preload = "LD_PRELOAD=/nonexistent/corral-evil.so";
    supervisor.launch(request(30, alice, "#!/bin/sh\necho ready\nsleep 60\n", List.of(preload), spec -> { }));
    waitFor(() -> readOrEmpty(work.resolve("slurm-30.out")).contains("ready")
        && JobDirectory.in(spool, 30).processGroup().isPresent());
    long wrapper = JobDirectory.in(spool, 30).wrapperRecord().orElseThrow()[0];
    long job = JobDirectory.in(spool, 30).processGroup().getAsLong();

    List<ProcessHandle> tree = ProcessHandle.of(wrapper).orElseThrow().descendants().toList();
    assertThat(tree).extracting(ProcessHandle::pid).contains(job);
    assertThat(environ(wrapper)).doesNotContain("LD_PRELOAD");
    for (ProcessHandle process : tree) {
      if (process.info().user().orElse("").equals("root")) {
        assertThat(environ(process.pid())).doesNotContain("LD_PRELOAD");
      }
    }
    assertThat(environ(job)).contains(preload);

    supervisor.signal(30, 0, 5);
    recorder.await(30);
    assertThat(spool.resolve("job00030/launch.err")).doesNotExist();
  }

  @Test
  void aRepeatedLaunchIsIgnoredAndForgetRemovesTheSpoolDirectory() throws Exception {
    LaunchBatchRequest once = request(31, alice, "#!/bin/sh\necho ran\n", List.of(),
        spec -> spec.setOpenMode("append"));
    supervisor.launch(once);
    supervisor.launch(once);
    recorder.await(31);
    supervisor.launch(once);
    Thread.sleep(300);

    assertThat(Files.readString(work.resolve("slurm-31.out"))).isEqualTo("ran\n");
    assertThat(recorder.calls()).isEqualTo(1);
    supervisor.forget(31);
    assertThat(spool.resolve("job00031")).doesNotExist();
  }

  @Test
  void aForgottenJobsDirectoryServesTheNextJobWithNothingOfTheFormerLeft() throws Exception {
    supervisor.launch(request(33, alice, "#!/bin/sh\necho first\nexit 3\n", List.of(), spec -> { }));
    assertThat(recorder.await(33).exitStatus()).isEqualTo(3 << 8);
    Object inode = Files.getAttribute(spool.resolve("job00033"), "unix:ino");
    Object aliceScript = Files.getAttribute(spool.resolve("job00033/slurm_script"), "unix:ino");
    Files.writeString(spool.resolve("job00033/hook-output"), "left by a Prolog");
    supervisor.forget(33);
    assertThat(spool.resolve("job00033")).doesNotExist();

    supervisor.launch(request(34, alice, "#!/bin/sh\necho second\n", List.of(), spec -> { }));
    assertThat(recorder.await(34).exitStatus()).isZero();
    Path reused = spool.resolve("job00034");
    assertThat(Files.getAttribute(reused, "unix:ino")).isEqualTo(inode);
    assertThat(Files.getAttribute(reused.resolve("slurm_script"), "unix:ino")).isEqualTo(aliceScript);
    assertThat(Files.readString(work.resolve("slurm-34.out"))).isEqualTo("second\n");
    assertThat(reused.resolve("hook-output")).doesNotExist();
    String record = Files.readString(reused.resolve("record"));
    assertThat(record).containsOnlyOnce("wrapper ").containsOnlyOnce("status 0\n");

    // Another user's job gets a script of its own: what alice holds open stays hers.
    try (var heldByAlice = Files.newInputStream(reused.resolve("slurm_script"))) {
      supervisor.forget(34);
      supervisor.launch(request(35, bob, "#!/bin/sh\nid -u\n", List.of(), spec -> { }));
      assertThat(recorder.await(35).exitStatus()).isZero();
      assertThat(new String(heldByAlice.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("#!/bin/sh\necho second\n");
    }
    assertThat(Files.getAttribute(spool.resolve("job00035"), "unix:ino")).isEqualTo(inode);
    assertThat(Files.getOwner(spool.resolve("job00035/slurm_script")).getName()).isEqualTo(TestUsers.BOB);
    assertThat(Files.readString(work.resolve("slurm-35.out"))).isEqualTo(bob.uid() + "\n");
  }

  @Test
  void aMissingWorkDirectoryRunsTheJobInTmpAndSaysSo() throws Exception {
    Path out = work.resolve("nodir.out");
    LaunchBatchRequest request = request(32, alice, "#!/bin/sh\npwd\n", List.of(),
        spec -> spec.setStdOut(out.toString()));
    request = request.toBuilder().setJob(request.getJob().toBuilder().setWorkDir("/nonexistent/corral")).build();
    supervisor.launch(request);

    assertThat(recorder.await(32).exitStatus()).isZero();
    String line = "slurmstepd-n1: error: couldn't chdir to `/nonexistent/corral': No such file or directory: "
        + "going to /tmp instead\n";
    assertThat(Files.readString(out)).isEqualTo(line + line + "/tmp\n");
  }

  private LaunchBatchRequest request(int jobId, User user, String script, List<String> env,
      java.util.function.Consumer<JobSpec.Builder> spec) {
    return LaunchRequests.batch(jobId, user, work, script, env, spec);
  }

  private static Map<String, String> parseEnviron(String text) {
    Map<String, String> env = new HashMap<>();
    for (String entry : text.split("\0")) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return env;
  }

  private static String environ(long pid) throws IOException {
    return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/environ")), StandardCharsets.UTF_8);
  }

  private static String readOrEmpty(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    for (int i = 0; i < 400 && !condition.getAsBoolean(); i++) {
      Thread.sleep(25);
    }
    assertThat(condition.getAsBoolean()).as("condition reached within 10 s").isTrue();
  }
}

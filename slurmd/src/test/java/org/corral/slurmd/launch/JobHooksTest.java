package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.SignalScope;
import org.corral.slurmd.hooks.HookSettings;
import org.corral.slurmd.hooks.NodeJobHooks;
import org.corral.testkit.TestUsers;
import org.corral.testkit.TestUsers.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prolog, Epilog, TaskProlog/TaskEpilog, signal scopes and UnkillableStepTimeout around real jobs
 * run as a real user: needs root (skipped otherwise).
 */
class JobHooksTest {
  @TempDir Path tmp;
  private Path spool;
  private Path work;
  private Path site;
  private User alice;
  private JobSupervisor supervisor;
  private final Ends ends = new Ends();

  /** Each job's end with the node trouble that came with it. */
  static final class Ends implements JobListener {
    record End(int exitStatus, boolean launchFailed, NodeTrouble trouble) {}

    private final Map<Integer, CompletableFuture<End>> ends = new ConcurrentHashMap<>();

    @Override
    public void finished(int jobId, int exitStatus, long endTime, boolean launchFailed, String message) {
      finished(jobId, exitStatus, endTime, launchFailed, message, false, NodeTrouble.NONE);
    }

    @Override
    public void finished(int jobId, int exitStatus, long endTime, boolean launchFailed, String message,
        boolean outOfMemory, NodeTrouble trouble) {
      future(jobId).complete(new End(exitStatus, launchFailed, trouble));
    }

    End await(int jobId) throws Exception {
      return future(jobId).get(30, TimeUnit.SECONDS);
    }

    private CompletableFuture<End> future(int jobId) {
      return ends.computeIfAbsent(jobId, id -> new CompletableFuture<>());
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    assumeTrue(TestUsers.canCreate(), "launching jobs as other users needs root");
    alice = TestUsers.ensure(TestUsers.ALICE);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    spool = tmp.resolve("spool");
    site = Files.createDirectories(tmp.resolve("site"));
    work = Files.createDirectories(tmp.resolve("work"));
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
  }

  @AfterEach
  void tearDown() throws IOException {
    if (supervisor != null) {
      supervisor.close();
    }
    SpoolCleanup.killRunningJobs(spool);
  }

  private Path program(String name, String body) throws IOException {
    Path p = site.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  private void start(Optional<Path> prolog, Optional<Path> epilog, Optional<Path> taskProlog,
      Optional<Path> taskEpilog, int unkillable) throws IOException {
    HookSettings settings = new HookSettings(prolog.map(Path::toString), epilog.map(Path::toString),
        Set.of(), taskProlog.map(Path::toString), taskEpilog.map(Path::toString), 0, unkillable,
        Optional.empty(), 0, Set.of("ANY"), "/opt/corral/bin:/usr/bin:/bin");
    supervisor = new JobSupervisor(spool, "n1", Clock.systemUTC(), ends,
        new NodeJobHooks(settings, "n1", "/etc/corral/slurm.conf", spool));
  }

  private LaunchBatchRequest job(int id, String script) {
    return LaunchRequests.batch(id, alice, work, script, List.of("PATH=/usr/bin:/bin"), spec -> { });
  }

  private static Map<String, String> environ(Path file) throws IOException {
    Map<String, String> env = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        env.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return env;
  }

  @Test
  void prologRunsAsRootBeforeTheScriptAndEpilogAfterItWithSlurmsEnvironment() throws Exception {
    Path prologOut = site.resolve("prolog.env");
    Path epilogOut = site.resolve("epilog.env");
    start(Optional.of(program("prolog", "env > " + prologOut + "\nid -u > " + site + "/prolog.uid\n"
            + "touch " + work + "/prolog-was-here\n")),
        Optional.of(program("epilog", "env > " + epilogOut + "\n")), Optional.empty(), Optional.empty(), 60);
    supervisor.launch(LaunchRequests.batch(21, alice, work, "#!/bin/sh\ntest -e prolog-was-here || exit 9\nexit 3\n",
        List.of("PATH=/usr/bin:/bin"), spec -> spec.setStdErr("e-%j.err").setNumTasks(1)));

    Ends.End end = ends.await(21);
    assertThat(end.exitStatus()).isEqualTo(3 << 8); // the script saw the Prolog's file
    assertThat(end.trouble()).isEqualTo(NodeTrouble.NONE);
    assertThat(Files.readString(site.resolve("prolog.uid"))).isEqualTo("0\n");
    Map<String, String> prolog = environ(prologOut);
    assertThat(prolog).containsAllEntriesOf(Map.of(
        "SLURM_JOB_ID", "21", "SLURM_JOBID", "21", "SLURM_JOB_USER", TestUsers.ALICE,
        "SLURM_JOB_UID", Integer.toString(alice.uid()), "SLURM_JOB_GID", Integer.toString(alice.gid()),
        "SLURM_JOB_NODELIST", "n1", "SLURM_JOB_PARTITION", "debug", "SLURM_CLUSTER_NAME", "testcluster",
        "SLURMD_NODENAME", "n1", "SLURM_SCRIPT_CONTEXT", "prolog_slurmd"));
    assertThat(prolog).containsEntry("SLURM_CONF", "/etc/corral/slurm.conf")
        .containsEntry("PATH", "/opt/corral/bin:/usr/bin:/bin");
    assertThat(prolog).doesNotContainKey("PLAIN_USER_VARIABLE");
    // what else a 22.05 Prolog saw of `sbatch -n1 -e e-%j.err` (no -o: no SLURM_JOB_STDOUT)
    assertThat(prolog).containsAllEntriesOf(Map.of("SLURM_NODELIST", "n1", "SLURM_UID", Integer.toString(alice.uid()),
        "SLURM_JOB_NUM_NODES", "1", "SLURM_JOB_CPUS_PER_NODE", "1", "SLURM_JOB_RESTART_COUNT", "0",
        "SLURM_JOB_NTASKS", "1", "SLURM_JOB_STDIN", "/dev/null", "SLURM_JOB_STDERR", work + "/e-%j.err",
        "SLURM_JOB_WORK_DIR", work.toString())).doesNotContainKey("SLURM_JOB_STDOUT");
    Map<String, String> epilog = environ(epilogOut);
    assertThat(epilog).containsEntry("SLURM_SCRIPT_CONTEXT", "epilog_slurmd")
        .containsEntry("SLURM_JOB_ID", "21").containsEntry("SLURM_JOB_USER", TestUsers.ALICE)
        .containsEntry("SLURM_JOB_EXIT_CODE", "768").containsEntry("SLURM_JOB_EXIT_CODE2", "3:0");
  }

  @Test
  void failingPrologReportsPrologFailedAndTheScriptNeverRuns() throws Exception {
    start(Optional.of(program("prolog", "exit 1\n")), Optional.empty(), Optional.empty(), Optional.empty(), 60);
    supervisor.launch(job(22, "#!/bin/sh\ntouch ran\n"));
    Ends.End end = ends.await(22);
    assertThat(end.trouble()).isEqualTo(NodeTrouble.PROLOG_FAILED);
    assertThat(end.launchFailed()).isTrue();
    assertThat(work.resolve("ran")).doesNotExist();
    assertThat(supervisor.runningJobs()).doesNotContain(22);
  }

  @Test
  void aJobCancelledWhileItsPrologRunsNeverStarts() throws Exception {
    start(Optional.of(program("prolog", "sleep 2\n")), Optional.empty(), Optional.empty(), Optional.empty(), 60);
    supervisor.launch(job(28, "#!/bin/sh\ntouch ran\n"));
    Thread.sleep(300);
    supervisor.signal(28, 0, 30);
    Ends.End end = ends.await(28);
    assertThat(end.exitStatus()).isEqualTo(ProcessGroupSignaller.SIGKILL);
    assertThat(end.trouble()).isEqualTo(NodeTrouble.NONE);
    assertThat(work.resolve("ran")).doesNotExist();
  }

  @Test
  void failingEpilogReportsEpilogFailedWithTheJobsStatus() throws Exception {
    start(Optional.empty(), Optional.of(program("epilog", "exit 2\n")), Optional.empty(), Optional.empty(), 60);
    supervisor.launch(job(23, "#!/bin/sh\nexit 0\n"));
    Ends.End end = ends.await(23);
    assertThat(end.exitStatus()).isZero();
    assertThat(end.trouble()).isEqualTo(NodeTrouble.EPILOG_FAILED);
  }

  @Test
  void taskPrologChangesTheScriptsEnvironmentAndTaskEpilogRunsAfterAsTheUser() throws Exception {
    start(Optional.empty(), Optional.empty(),
        Optional.of(program("task-prolog", """
            echo "export GREETING=hello world"
            echo "unset DROPPED"
            echo "print from the task prolog, pid $SLURM_TASK_PID"
            echo "export 1BAD=x"
            """)),
        Optional.of(program("task-epilog", "id -u > " + work + "/task-epilog.uid\n")), 60);
    LaunchBatchRequest req = LaunchRequests.batch(24, alice, work,
        "#!/bin/sh\necho \"GREETING=$GREETING DROPPED=${DROPPED-unset} pid=$$\"\n",
        List.of("PATH=/usr/bin:/bin", "DROPPED=yes"), spec -> { });
    supervisor.launch(req);
    assertThat(ends.await(24).exitStatus()).isZero();
    List<String> out = Files.readAllLines(work.resolve("slurm-24.out"));
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).startsWith("from the task prolog, pid ");
    assertThat(out.get(1)).startsWith("GREETING=hello world DROPPED=unset pid=");
    assertThat(Files.readString(work.resolve("task-epilog.uid"))).isEqualTo(alice.uid() + "\n");
  }

  @Test
  void batchScopeSignalsOnlyTheShellAndStepsScopeNothingOfABatchJob() throws Exception {
    start(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 60);
    supervisor.launch(job(25, """
        #!/bin/sh
        trap 'echo shell-usr1 >> got' USR1
        sh -c 'trap "echo child-usr1 >> got" USR1; while :; do sleep 0.1; done' &
        i=0
        while [ $i -lt 100 ] && [ ! -e stop ]; do sleep 0.1; i=$((i+1)); done
        kill $!
        """));
    Thread.sleep(1000);
    supervisor.signal(25, 10, 30, SignalScope.SIGNAL_STEPS);
    Thread.sleep(500);
    assertThat(work.resolve("got")).doesNotExist();
    supervisor.signal(25, 10, 30, SignalScope.SIGNAL_BATCH_SHELL);
    waitFor(work.resolve("got"));
    Thread.sleep(500);
    assertThat(Files.readAllLines(work.resolve("got"))).containsExactly("shell-usr1");
    supervisor.signal(25, 10, 30, SignalScope.SIGNAL_ALL);
    Thread.sleep(1000);
    assertThat(Files.readAllLines(work.resolve("got")))
        .containsExactlyInAnyOrder("shell-usr1", "shell-usr1", "child-usr1");
    Files.writeString(work.resolve("stop"), "");
    assertThat(ends.await(25).exitStatus()).isZero();
  }

  @Test
  void processesSurvivingSigkillEndTheJobAsKillFailed() throws Exception {
    // Plays a process stuck in the kernel: SIGKILL is "sent" but never arrives.
    Ends.End end = killTermIgnoringJob(26, true);
    assertThat(end.trouble()).isEqualTo(NodeTrouble.KILL_FAILED);
    assertThat(end.exitStatus()).isEqualTo(ProcessGroupSignaller.SIGKILL);
    // The job still runs (only its SIGKILL was lost): end it, and let its wrapper finish writing.
    SpoolCleanup.killRunningJobs(spool);
    waitForEnd(JobDirectory.in(spool, 26));
  }

  @Test
  void aJobThatDiesOfSigkillIsNotReportedUnkillable() throws Exception {
    Ends.End end = killTermIgnoringJob(27, false);
    assertThat(end.trouble()).isEqualTo(NodeTrouble.NONE);
    assertThat(end.exitStatus()).isEqualTo(ProcessGroupSignaller.SIGKILL);
  }

  /** Cancels (KillWait 0, UnkillableStepTimeout 1 s) a job that ignores SIGTERM; how it ended. */
  private Ends.End killTermIgnoringJob(int id, boolean sigkillLost) throws Exception {
    start(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 1);
    if (sigkillLost) {
      supervisor.useSignaller((group, signal) -> signal == ProcessGroupSignaller.SIGKILL
          || ProcessGroupSignaller.signal(group, signal));
    }
    supervisor.launch(job(id, "#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.2; done\n"));
    Thread.sleep(1000);
    supervisor.signal(id, 0, 0);
    return ends.await(id);
  }

  private static void waitFor(Path file) throws InterruptedException {
    for (int i = 0; i < 100 && !Files.exists(file); i++) {
      Thread.sleep(100);
    }
  }

  private static void waitForEnd(JobDirectory dir) throws InterruptedException {
    for (int i = 0; i < 100 && !dir.hasEnded(); i++) {
      Thread.sleep(100);
    }
  }
}

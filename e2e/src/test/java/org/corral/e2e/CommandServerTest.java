package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The commands through the resident command server and its front end
 * (docs/adr/0007-resident-command-server.md), on one cluster: concurrent calls that keep their
 * own environment, directory and stdin; srun's live output and Ctrl-C; a crashed server, one of
 * another build, the direct-path switch; and one server per user.
 */
class CommandServerTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;
  private static Path work;
  /** Root's server directory for this class (each test user has the default one). */
  private static Path serverDir;
  private static Map<String, String> viaServer;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.up(2, 8, 4000);
    work = cluster.workDir(alice);
    serverDir = cluster.root.resolve("cmd-root");
    viaServer = Map.of("CORRAL_COMMAND_SERVER_DIR", serverDir.toString());
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      stopServer(null, viaServer);
      cluster.close();
    }
  }

  @Test
  void sixteenConcurrentCallsEachKeepTheirEnvironmentDirectoryAndStdin() throws Exception {
    Path socket = socket(serverDir);
    warmUp(null, viaServer, socket);
    long server = serverPid(socket);
    List<Path> dirs = new ArrayList<>();
    for (int n = 0; n < 16; n++) {
      dirs.add(Files.createDirectories(work.resolve("call-" + n)));
    }
    // sixteen held jobs at once, each script from its call's stdin, with its call's variables
    List<LocalCluster.Result> submitted = concurrently(n -> cluster.withInput(null, dirs.get(n),
        with("MARK", "mark-" + n), "#!/bin/sh\necho \"$MARK $(pwd) " + n + "\"\n", "sbatch", "-H", "-o", "out.txt"));
    List<Integer> jobs = submitted.stream().map(LocalCluster::jobId).toList();
    assertThat(jobs).doesNotHaveDuplicates();
    // sixteen squeues at once, each with its own format variable
    List<LocalCluster.Result> listed = concurrently(n -> cluster.as(null, dirs.get(n),
        with("SQUEUE_FORMAT", "call-" + n + " %i %Z"), "squeue", "-h", "-j", String.valueOf(jobs.get(n))));
    for (int n = 0; n < 16; n++) {
      assertThat(listed.get(n)).isEqualTo(new LocalCluster.Result(0, "call-" + n + " " + jobs.get(n) + " " + dirs.get(n) + "\n", ""));
    }
    assertThat(serverPid(socket)).as("one server served them all").isEqualTo(server);
    for (int job : jobs) {
      cluster.as(null, "scontrol", "release", String.valueOf(job));
    }
    for (int job : jobs) {
      awaitEnd(job);
    }
    for (int n = 0; n < 16; n++) {
      assertThat(Files.readString(dirs.get(n).resolve("out.txt"))).isEqualTo("mark-" + n + " " + dirs.get(n) + " " + n + "\n");
    }
  }

  /** The server's directory for root and one more variable. */
  private static Map<String, String> with(String name, String value) {
    return Map.of("CORRAL_COMMAND_SERVER_DIR", serverDir.toString(), name, value);
  }

  private interface Call {
    LocalCluster.Result run(int n) throws Exception;
  }

  /** Sixteen calls at once; their results in order. */
  private static List<LocalCluster.Result> concurrently(Call call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<LocalCluster.Result>> calls = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        int n = i;
        calls.add(pool.submit(() -> call.run(n)));
      }
      List<LocalCluster.Result> results = new ArrayList<>();
      for (Future<LocalCluster.Result> f : calls) {
        results.add(f.get(120, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void srunOutputIsLiveAndCtrlCOnceGivesStatusTwiceCancels() throws Exception {
    Path socket = socket(serverDir);
    warmUp(null, viaServer, socket);
    Process srun = cluster.start(null, work, viaServer, "srun", "-n1", "sh", "-c", "echo started; exec sleep 120");
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(srun.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("started"); // while the task still runs
      assertThat(srun.isAlive()).isTrue();
      signal(srun, "INT");
      Thread.sleep(200);
      signal(srun, "INT");
      assertThat(srun.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String err = new String(srun.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(err).contains("srun: interrupt (one more within 1 sec to abort)")
          .contains("task 0: running").contains("srun: sending Ctrl-C to StepId=")
          .contains("srun: forcing job termination");
      assertThat(srun.exitValue()).isNotZero();
    } finally {
      srun.destroyForcibly();
    }
    // a command that does not catch SIGINT dies of it, as its own process would
    Process squeue = cluster.start(null, work, viaServer, "squeue", "-i", "60");
    try {
      BufferedReader listing = new BufferedReader(new InputStreamReader(squeue.getInputStream(), StandardCharsets.UTF_8));
      assertThat(listing.readLine()).isNotEmpty(); // the date line
      assertThat(listing.readLine()).contains("JOBID");
      signal(squeue, "INT");
      assertThat(squeue.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(squeue.exitValue()).isEqualTo(130); // Java reports death by SIGINT as 128+2
    } finally {
      squeue.destroyForcibly();
    }
  }

  @Test
  void sallocRunsTheUsersShellInTheUsersTerminal() throws Exception {
    // under script(1): a terminal, as a user's; salloc goes the direct way, its shell is its own child
    Path in = Files.createTempFile(cluster.root, "keys", ".txt");
    try {
      Files.writeString(in, "echo inside-$SLURM_JOB_ID-$(tty | cut -c1-8)\nexit 3\n");
      LocalCluster.Result r = cluster.program(null, work, Map.of("CORRAL_COMMAND_SERVER_DIR", serverDir.toString(),
          "SHELL", "/bin/sh"), "/bin/sh", "-c", "exec script -q -e -c '" + cluster.home.resolve("bin/salloc")
          + " -N1' /dev/null < " + in);
      int job = StepsSupport.grantedJob(r.out());
      assertThat(r.out()).contains("inside-" + job + "-/dev/pts");
      assertThat(r.exitCode()).isEqualTo(3);
    } finally {
      Files.deleteIfExists(in);
    }
  }

  @Test
  void aCrashedServerIsReplacedAndTheCommandStillRuns() throws Exception {
    Path socket = socket(serverDir);
    warmUp(null, viaServer, socket);
    long crashed = serverPid(socket);
    new ProcessBuilder("kill", "-9", String.valueOf(crashed)).start().waitFor();
    awaitGone(crashed);
    assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).as("the dead server's socket is left").isTrue();
    LocalCluster.Result r = cluster.as(null, work, viaServer, "sinfo", "-h", "-o", "%D");
    assertThat(r).isEqualTo(new LocalCluster.Result(0, "2\n", ""));
    warmUp(null, viaServer, socket);
    assertThat(serverPid(socket)).isNotEqualTo(crashed);
  }

  @Test
  void aServerOfAnotherBuildIsNeverUsedAndIsToldToExit() throws Exception {
    Path socket = socket(serverDir);
    warmUp(null, viaServer, socket);
    stopServer(null, viaServer);
    // a server started for other jars, on this installation's socket
    ProcessBuilder pb = new ProcessBuilder(cluster.home.resolve("libexec/corral-run").toString(), "--socket",
        socket.toString(), "--build", "another-build", "--idle-seconds", "60");
    pb.environment().put("CORRAL_RUN_AS", "corral-command-server");
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process other = pb.start();
    try {
      for (int i = 0; i < 600 && !Files.exists(Path.of(socket + ".pid")); i++) {
        Thread.sleep(100);
      }
      assertThat(serverPid(socket)).isEqualTo(other.pid());
      LocalCluster.Result r = cluster.as(null, work, viaServer, "sinfo", "-h", "-o", "%D");
      assertThat(r).isEqualTo(new LocalCluster.Result(0, "2\n", ""));
      assertThat(other.waitFor(30, TimeUnit.SECONDS)).as("the other build's server exits").isTrue();
      warmUp(null, viaServer, socket);
      assertThat(serverPid(socket)).isNotEqualTo(other.pid());
    } finally {
      other.destroyForcibly();
    }
  }

  @Test
  void theSwitchForcesTheDirectPath() throws Exception {
    Path dir = cluster.root.resolve("cmd-unused");
    Map<String, String> env = Map.of("CORRAL_COMMAND_SERVER", "0", "CORRAL_COMMAND_SERVER_DIR", dir.toString());
    assertThat(cluster.as(null, work, env, "sinfo", "-h", "-o", "%D").out()).isEqualTo("2\n");
    assertThat(cluster.as(null, work, env, "sinfo", "-h", "-o", "%D").out()).isEqualTo("2\n");
    assertThat(dir).doesNotExist();
  }

  @Test
  void twoUsersNeverShareAServer() throws Exception {
    Path aliceSocket = socket(Path.of("/tmp/corral-cmd-" + alice.uid()));
    Path bobSocket = socket(Path.of("/tmp/corral-cmd-" + bob.uid()));
    warmUp(alice, Map.of(), aliceSocket);
    warmUp(bob, Map.of(), bobSocket);
    long a = serverPid(aliceSocket);
    long b = serverPid(bobSocket);
    assertThat(a).isNotEqualTo(b);
    assertThat(Files.getAttribute(Path.of("/proc/" + a), "unix:uid")).isEqualTo(alice.uid());
    assertThat(Files.getAttribute(Path.of("/proc/" + b), "unix:uid")).isEqualTo(bob.uid());
    for (Path s : List.of(aliceSocket, bobSocket)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(s.getParent(), LinkOption.NOFOLLOW_LINKS)))
          .isEqualTo("rwx------");
    }
    // bob pointed at alice's directory: refused (not his), the command runs the direct way
    LocalCluster.Result r = cluster.as(bob, work, Map.of("CORRAL_COMMAND_SERVER_DIR", aliceSocket.getParent().toString()),
        "squeue", "-h", "-u", bob.name(), "-o", "%u");
    assertThat(r.exitCode()).isZero();
    assertThat(serverPid(aliceSocket)).isEqualTo(a);
    // what the controller records is the caller's own user, whichever server asked
    int job = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "-H", "-o", "/dev/null", "--wrap", "true"));
    assertThat(cluster.as(null, "squeue", "-h", "-j", String.valueOf(job), "-o", "%u").out()).isEqualTo(bob.name() + "\n");
    cluster.as(null, "scancel", String.valueOf(job));
  }

  /** The socket of this cluster's installation in the given server directory. */
  private static Path socket(Path dir) throws Exception {
    Path lib = cluster.home.resolve("build/lib");
    return dir.resolve("s-" + Files.getAttribute(lib, "unix:dev") + "-" + Files.getAttribute(lib, "unix:ino"));
  }

  /** Runs commands until one was served by a running server (the first one starts it). */
  private static void warmUp(TestUsers.User user, Map<String, String> env, Path socket) throws Exception {
    for (int i = 0; i < 300; i++) {
      if (Files.exists(Path.of(socket + ".pid")) && ProcessHandle.of(serverPid(socket)).map(ProcessHandle::isAlive).orElse(false)) {
        return;
      }
      assertThat(cluster.as(user, work, env, "sinfo", "-h", "-o", "%D").out()).isEqualTo("2\n");
      Thread.sleep(200);
    }
    throw new AssertionError("no command server came up at " + socket);
  }

  /** Waits (two minutes at most) until the job has ended. */
  private static void awaitEnd(int job) throws Exception {
    String state = "";
    for (int i = 0; i < 480; i++) {
      state = cluster.state(job);
      if (state.isEmpty() || state.equals("COMPLETED")) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("job " + job + " still " + state);
  }

  private static long serverPid(Path socket) throws Exception {
    return Long.parseLong(Files.readString(Path.of(socket + ".pid")).trim());
  }

  private static void stopServer(TestUsers.User user, Map<String, String> env) throws Exception {
    cluster.as(user, null, env, "../libexec/corral-front", "--stop-server");
  }

  private static void awaitGone(long pid) throws InterruptedException {
    for (int i = 0; i < 300 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); i++) {
      Thread.sleep(100);
    }
  }

  private static void signal(Process p, String sig) throws Exception {
    new ProcessBuilder("kill", "-" + sig, String.valueOf(p.pid())).start().waitFor();
  }
}

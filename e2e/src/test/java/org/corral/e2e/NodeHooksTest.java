package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Node-side hooks on a real cluster whose slurm.conf sets Prolog, Epilog, TaskProlog and a
 * health check (site scripts that fail when a marker file says so), plus node administration
 * and requeue through scontrol, and signals before the time limit.
 */
class NodeHooksTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static Path hooks;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    hooks = Files.createTempDirectory(Path.of("/tmp"), "corral-hooks-");
    Files.setPosixFilePermissions(hooks, PosixFilePermissions.fromString("rwxr-xr-x"));
    script("prolog", """
        env > "$HOOKS/prolog-$SLURM_JOB_ID-$SLURMD_NODENAME.env"
        [ -e "$HOOKS/fail-prolog" ] || [ -e "$HOOKS/fail-prolog-$SLURMD_NODENAME" ] && exit 1
        exit 0
        """);
    script("epilog", """
        env > "$HOOKS/epilog-$SLURM_JOB_ID-$SLURMD_NODENAME.env"
        [ -e "$HOOKS/slow-epilog" ] && sleep 3
        touch "$HOOKS/epilog-done-$SLURM_JOB_ID-$SLURMD_NODENAME"
        [ -e "$HOOKS/fail-epilog" ] && exit 1
        exit 0
        """);
    script("task-prolog", """
        echo "export FROM_TASK_PROLOG=yes it is"
        echo "print task prolog for job $SLURM_JOB_ID"
        """);
    script("health", """
        if [ -e "$HOOKS/unhealthy" ]; then
          scontrol update NodeName="$SLURMD_NODENAME" State=DRAIN Reason="health check: disk full"
        fi
        exit 0
        """);
    cluster = LocalCluster.upWithConfig(2, """
        ClusterName=hooked
        SlurmdTimeout=30
        ReturnToService=2
        KillWait=2
        DefMemPerCPU=100
        Prolog=%1$s/prolog
        PrologFlags=Alloc
        Epilog=%1$s/epilog
        TaskProlog=%1$s/task-prolog
        HealthCheckProgram=%1$s/health
        HealthCheckInterval=1
        NodeName=h[1-2] CPUs=2 RealMemory=1000
        PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(hooks));
  }

  private static void script(String name, String body) throws IOException {
    Path p = hooks.resolve(name);
    Files.writeString(p, "#!/bin/sh\nHOOKS=" + hooks + "\n" + body);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (hooks != null) {
      new ProcessBuilder("rm", "-rf", hooks.toString()).start().waitFor();
    }
  }

  /** Every test leaves the nodes in service and no marker behind. */
  @AfterEach
  void restore() throws Exception {
    for (String marker : new String[] {"fail-prolog", "fail-prolog-h2", "fail-epilog", "slow-epilog", "unhealthy"}) {
      Files.deleteIfExists(hooks.resolve(marker));
    }
    cluster.as(null, "scancel", "-u", TestUsers.ALICE);
    cluster.as(null, "scancel", "-u", "root");
    for (String node : new String[] {"h1", "h2"}) {
      cluster.as(null, "scontrol", "update", "NodeName=" + node, "State=RESUME");
    }
  }

  private String squeue(int id, String format) throws Exception {
    return cluster.as(null, "squeue", "-h", "-t", "all", "-j", String.valueOf(id), "-o", format).out().trim();
  }

  /** sbatch as alice, in her work directory; the new job's id. */
  private static int submit(String... sbatchArgs) throws Exception {
    String[] args = new String[sbatchArgs.length + 1];
    args[0] = "sbatch";
    System.arraycopy(sbatchArgs, 0, args, 1, sbatchArgs.length);
    return LocalCluster.jobId(cluster.as(alice, cluster.workDir(alice), args));
  }

  /** A failed Prolog sends the job back to the queue, held. */
  private void awaitLaunchFailedHeld(int id) throws Exception {
    assertThat(eventually(() -> squeue(id, "%T %r").equals("PENDING launch failed requeued held"), 30))
        .as(squeue(id, "%T %r")).isTrue();
  }

  private String showJob(int id) throws Exception {
    return cluster.as(null, "scontrol", "show", "job", String.valueOf(id)).out();
  }

  private static boolean eventually(Check check, int timeoutS) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
    while (System.nanoTime() < deadline) {
      if (check.holds()) {
        return true;
      }
      Thread.sleep(250);
    }
    return check.holds();
  }

  @FunctionalInterface
  interface Check {
    boolean holds() throws Exception;
  }

  @Test
  void taskPrologRunsBeforeEachTaskOfAStep() throws Exception {
    Path work = cluster.workDir(alice);
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-N2", "-n2", "-l", "sh", "-c",
        "echo \"FROM_TASK_PROLOG=$FROM_TASK_PROLOG in $SLURM_JOB_ID\"");
    assertThat(r.exitCode()).as(r.err()).isZero();
    String job = r.out().replaceAll("(?s).*FROM_TASK_PROLOG=yes it is in (\\d+).*", "$1");
    assertThat(r.out().split("\n")).containsExactlyInAnyOrder(
        "0: task prolog for job " + job, "0: FROM_TASK_PROLOG=yes it is in " + job,
        "1: task prolog for job " + job, "1: FROM_TASK_PROLOG=yes it is in " + job);
  }

  @Test
  void prologAndEpilogSeeSlurmsEnvironmentAndTaskPrologSetsTheJobs() throws Exception {
    Path work = cluster.workDir(alice);
    int id = submit("-o", "out-%j.txt", "--wrap",
        "echo \"FROM_TASK_PROLOG=$FROM_TASK_PROLOG\"");
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String node = squeue(id, "%N");
    String prolog = Files.readString(hooks.resolve("prolog-" + id + "-" + node + ".env"));
    assertThat(prolog).contains("SLURM_JOB_ID=" + id + "\n", "SLURM_JOB_USER=" + TestUsers.ALICE + "\n",
        "SLURM_JOB_UID=" + alice.uid() + "\n", "SLURM_JOB_GID=" + alice.gid() + "\n",
        "SLURM_JOB_NODELIST=" + node + "\n", "SLURM_JOB_PARTITION=main\n",
        "SLURM_CLUSTER_NAME=hooked\n", "SLURMD_NODENAME=" + node + "\n",
        "SLURM_SCRIPT_CONTEXT=prolog_slurmd\n", "SLURM_CONF=" + cluster.dir.resolve("slurm.conf") + "\n");
    Path epilog = hooks.resolve("epilog-" + id + "-" + node + ".env");
    assertThat(eventually(() -> Files.exists(epilog), 10)).isTrue();
    assertThat(Files.readString(epilog))
        .contains("SLURM_SCRIPT_CONTEXT=epilog_slurmd\n", "SLURM_JOB_EXIT_CODE=0\n");
    assertThat(Files.readString(work.resolve("out-" + id + ".txt")))
        .isEqualTo("task prolog for job " + id + "\nFROM_TASK_PROLOG=yes it is\n");
  }

  @Test
  void failingPrologDrainsTheNodeAndRequeuesTheJobHeld() throws Exception {
    Files.writeString(hooks.resolve("fail-prolog"), "");
    Path work = cluster.workDir(alice);
    int id = submit("-o", "/dev/null", "--wrap", "touch ran");
    awaitLaunchFailedHeld(id);
    assertThat(work.resolve("ran")).doesNotExist();
    assertThat(showJob(id)).contains("JobState=PENDING Reason=launch_failed_requeued_held",
        "Restarts=1", "Priority=0");
    String drained = cluster.as(null, "sinfo", "-h", "-R", "-o", "%E|%u").out();
    assertThat(drained).isEqualTo("Prolog error|root\n");
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).contains(" drain");
  }

  @Test
  void withPrologFlagsAllocEveryNodeOfTheJobRunsPrologAndEpilog() throws Exception {
    int id = submit("-N", "2", "-o", "/dev/null", "--wrap", "sleep 1");
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    for (String node : new String[] {"h1", "h2"}) {
      assertThat(Files.readString(hooks.resolve("prolog-" + id + "-" + node + ".env")))
          .contains("SLURMD_NODENAME=" + node + "\n", "SLURM_JOB_NODELIST=h[1-2]\n");
      Path epilog = hooks.resolve("epilog-" + id + "-" + node + ".env");
      assertThat(eventually(() -> Files.exists(epilog), 10)).as(node).isTrue();
    }
  }

  @Test
  void anSallocAllocationRunsPrologAndEpilogOnEveryNode() throws Exception {
    LocalCluster.Result r = cluster.as(alice, cluster.workDir(alice), "salloc", "-N2", "sh", "-c",
        "echo job=$SLURM_JOB_ID");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    String id = r.out().trim().replace("job=", "");
    for (String node : new String[] {"h1", "h2"}) {
      Path prolog = hooks.resolve("prolog-" + id + "-" + node + ".env");
      // salloc does not wait for the Prolog (PrologFlags=Alloc, as NoHold), whose `env >` makes
      // the file before it writes it: wait for what it writes, not for the file.
      assertThat(eventually(() -> Files.exists(prolog) && Files.readString(prolog).contains("SLURM_SCRIPT_CONTEXT=")
          && Files.readString(prolog).contains("SLURM_JOB_USER="), 10)).as(node).isTrue();
      assertThat(Files.readString(prolog))
          .contains("SLURM_SCRIPT_CONTEXT=prolog_slurmd\n", "SLURM_JOB_USER=" + TestUsers.ALICE + "\n");
      Path epilog = hooks.resolve("epilog-" + id + "-" + node + ".env");
      assertThat(eventually(() -> Files.exists(epilog), 10)).as(node).isTrue();
    }
  }

  @Test
  void aJobCompletesOnlyWhenTheEpilogOfEveryNodeIsDone() throws Exception {
    Files.writeString(hooks.resolve("slow-epilog"), "");
    int id = submit("-N", "2", "-o", "/dev/null", "--wrap", "true");
    assertThat(cluster.awaitState(id, "COMPLETING", 30)).isEqualTo("COMPLETING");
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    for (String node : new String[] {"h1", "h2"}) {
      assertThat(hooks.resolve("epilog-done-" + id + "-" + node)).exists();
    }
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).isEqualTo("h1 idle\nh2 idle\n");
  }

  @Test
  void prologFailingOnAnotherNodeOfTheJobDrainsItAndRequeuesTheJobHeld() throws Exception {
    Files.writeString(hooks.resolve("fail-prolog-h2"), "");
    int id = submit("-N", "2", "-o", "/dev/null", "--wrap", "sleep 60");
    awaitLaunchFailedHeld(id);
    assertThat(cluster.as(null, "sinfo", "-h", "-R", "-o", "%E|%N").out()).isEqualTo("Prolog error|h2\n");
  }

  @Test
  void whileTheEpilogRunsTheJobIsCompletingAndHoldsItsNode() throws Exception {
    Files.writeString(hooks.resolve("slow-epilog"), "");
    int id = submit("-o", "/dev/null", "--wrap", "true");
    assertThat(cluster.awaitState(id, "COMPLETING", 30)).isEqualTo("COMPLETING");
    String node = squeue(id, "%N");
    assertThat(squeue(id, "%t")).isEqualTo("CG");
    assertThat(cluster.as(null, "sinfo", "-h", "-n", node, "-o", "%t").out()).isEqualTo("mix\n");
    assertThat(cluster.awaitState(id, "COMPLETED", 30)).isEqualTo("COMPLETED");
    assertThat(cluster.as(null, "sinfo", "-h", "-n", node, "-o", "%t").out()).isEqualTo("idle\n");
  }

  @Test
  void failingEpilogDrainsTheNode() throws Exception {
    Files.writeString(hooks.resolve("fail-epilog"), "");
    int id = submit("-o", "/dev/null", "--wrap", "true");
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String node = squeue(id, "%N");
    assertThat(cluster.as(null, "sinfo", "-h", "-R", "-o", "%E %N").out()).isEqualTo("Epilog error " + node + "\n");
    assertThat(cluster.as(null, "scontrol", "show", "node", node).out())
        .contains("State=IDLE+DRAIN ", "Reason=Epilog error [root@");
  }

  @Test
  void healthCheckDrainsTheNodeWithItsReason() throws Exception {
    Files.writeString(hooks.resolve("unhealthy"), "");
    assertThat(eventually(() -> cluster.as(null, "sinfo", "-h", "-R", "-o", "%E|%N").out()
        .equals("health check: disk full|h[1-2]\n"), 20)).isTrue();
    String listing = cluster.as(null, "sinfo", "-R").out();
    assertThat(listing).startsWith("REASON               USER      TIMESTAMP           NODELIST\n"
        + "health check: disk f root      ");
    assertThat(listing).matches("(?s).*\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d h(\\[1-2\\]|1\n.* h2)\n");
  }

  @Test
  void onlyAdministratorsDrainAndResumeNodes() throws Exception {
    LocalCluster.Result refused = cluster.as(alice, "scontrol", "update", "NodeName=h1", "State=DRAIN", "Reason=mine");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("slurm_update error: Invalid user id\n");

    LocalCluster.Result noReason = cluster.as(null, "scontrol", "update", "NodeName=h1", "State=DRAIN");
    assertThat(noReason.exitCode()).isEqualTo(1);
    assertThat(noReason.err()).isEqualTo("You must specify a reason when DOWNING or DRAINING a node. Request denied\n");

    LocalCluster.Result drain = cluster.as(null, "scontrol", "update", "NodeName=h1", "State=DRAIN", "Reason=bad disk");
    assertThat(drain.exitCode()).isZero();
    assertThat(drain.out() + drain.err()).isEmpty();
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t %T").out()).isEqualTo("h1 drain drained\nh2 idle idle\n");
    assertThat(cluster.as(null, "scontrol", "show", "node", "h1").out())
        .contains("State=IDLE+DRAIN ", "Reason=bad disk [root@");

    assertThat(cluster.as(null, "scontrol", "update", "NodeName=h1", "State=RESUME").exitCode()).isZero();
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).isEqualTo("h1 idle\nh2 idle\n");
    LocalCluster.Result again = cluster.as(null, "scontrol", "update", "NodeName=h1", "State=RESUME");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.err()).isEqualTo("slurm_update error: Invalid node state specified\n");
  }

  @Test
  void downKillsTheNodesJobsWhichGoBackToTheQueueAndResumeReturnsIt() throws Exception {
    Path work = cluster.workDir(alice);
    int id = submit("-o", "/dev/null", "--wrap",
        "echo $$ > pid-$SLURM_JOB_ID; sleep 300");
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    Path pidFile = work.resolve("pid-" + id);
    assertThat(eventually(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), 10)).isTrue();
    long pid = Long.parseLong(Files.readString(pidFile).trim());
    String node = squeue(id, "%N");

    LocalCluster.Result down = cluster.as(null, "scontrol", "update", "NodeName=" + node, "State=DOWN", "Reason=maintenance");
    assertThat(down.exitCode()).isZero();
    assertThat(cluster.awaitState(id, "PENDING", 20)).isEqualTo("PENDING");
    assertThat(showJob(id)).contains("Restarts=1");
    assertThat(eventually(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), 20)).isTrue();
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).contains(node + " down\n");
    assertThat(cluster.as(null, "sinfo", "-h", "-R", "-o", "%E|%u|%N").out()).isEqualTo("maintenance|root|" + node + "\n");

    assertThat(cluster.as(null, "scontrol", "update", "NodeName=" + node, "State=RESUME").exitCode()).isZero();
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).isEqualTo("h1 idle\nh2 idle\n");
  }

  @Test
  void requeueAndRequeueholdReturnRunningJobsToTheQueue() throws Exception {
    int first = submit("-o", "/dev/null", "--wrap", "sleep 300");
    int second = submit("-o", "/dev/null", "--wrap", "sleep 300");
    int fixed = submit("--no-requeue", "-o", "/dev/null", "--wrap", "sleep 300");
    for (int id : new int[] {first, second, fixed}) {
      assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    }

    LocalCluster.Result requeued = cluster.as(alice, "scontrol", "requeue", String.valueOf(first));
    assertThat(requeued.exitCode()).isZero();
    assertThat(cluster.awaitState(first, "PENDING", 30)).isEqualTo("PENDING");
    assertThat(eventually(() -> squeue(first, "%r").equals("BeginTime"), 10)).isTrue();
    assertThat(showJob(first)).contains("JobState=PENDING Reason=BeginTime", "Requeue=1 Restarts=1");

    assertThat(cluster.as(null, "scontrol", "requeuehold", String.valueOf(second)).exitCode()).isZero();
    assertThat(cluster.awaitState(second, "PENDING", 30)).isEqualTo("PENDING");
    assertThat(squeue(second, "%r")).isEqualTo("job requeued in held state");
    assertThat(showJob(second)).contains("Priority=0", "Reason=job_requeued_in_held_state", "Restarts=1");

    LocalCluster.Result pending = cluster.as(null, "scontrol", "requeue", String.valueOf(second));
    assertThat(pending.exitCode()).isEqualTo(1);
    assertThat(pending.err()).isEqualTo("Job is pending execution for job " + second + "\n");
    LocalCluster.Result disabled = cluster.as(alice, "scontrol", "requeue", String.valueOf(fixed));
    assertThat(disabled.exitCode()).isEqualTo(1);
    assertThat(disabled.err()).isEqualTo("Requested operation is presently disabled for job " + fixed + "\n");
    assertThat(cluster.state(fixed)).isEqualTo("RUNNING");

    int special = submit("-o", "/dev/null", "--wrap", "sleep 300");
    assertThat(cluster.awaitState(special, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.as(null, "scontrol", "requeuehold", "State=SpecialExit", String.valueOf(special))
        .exitCode()).isZero();
    assertThat(cluster.awaitState(special, "SPECIAL_EXIT", 30)).isEqualTo("SPECIAL_EXIT");
    assertThat(squeue(special, "%t %r")).isEqualTo("SE job requeued in held state");
    assertThat(cluster.as(null, "scontrol", "release", String.valueOf(special)).exitCode()).isZero();
    assertThat(squeue(special, "%T")).isEqualTo("PENDING");
  }

  @Test
  void signalReachesTheBatchShellBeforeTheTimeLimitAndScancelSignalsWithoutCancelling() throws Exception {
    Path work = cluster.workDir(alice);
    Files.writeString(work.resolve("trap.sh"), """
        #!/bin/sh
        trap 'echo "usr1 at $(date +%s)" >> usr1-$SLURM_JOB_ID.txt' USR1
        trap 'echo "usr2" >> usr2-$SLURM_JOB_ID.txt' USR2
        i=0
        while [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
        """);
    long submitted = System.currentTimeMillis() / 1000;
    int id = submit("-t", "1", "--signal=B:USR1@55",
        "-o", "/dev/null", "trap.sh");
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    Path usr1 = work.resolve("usr1-" + id + ".txt");
    assertThat(eventually(() -> Files.exists(usr1), 20)).isTrue();
    long at = Long.parseLong(Files.readString(usr1).trim().split(" ")[2]);
    assertThat(at - submitted).isLessThan(30); // 55 s before a 60 s limit, not at the end
    assertThat(cluster.state(id)).isEqualTo("RUNNING");

    // Without --batch/--full a signal is for the job's steps: a batch job without any gets none.
    assertThat(cluster.as(alice, "scancel", "-s", "USR2", String.valueOf(id)).exitCode()).isZero();
    Thread.sleep(1500);
    assertThat(work.resolve("usr2-" + id + ".txt")).doesNotExist();
    assertThat(cluster.as(alice, "scancel", "-s", "USR2", "--batch", String.valueOf(id)).exitCode()).isZero();
    assertThat(eventually(() -> Files.exists(work.resolve("usr2-" + id + ".txt")), 10)).isTrue();
    assertThat(cluster.state(id)).isEqualTo("RUNNING");
    assertThat(Files.readAllLines(usr1)).hasSize(1); // sent once
  }

  @Test
  void aPlainScancelSignalReachesTheJobsStepsButNotItsBatchShell() throws Exception {
    Path work = cluster.workDir(alice);
    Files.writeString(work.resolve("steps.sh"), """
        #!/bin/sh
        trap 'echo shell-usr1 >> shell-$SLURM_JOB_ID.txt' USR1
        srun -n1 sh -c 'trap "echo step-usr1 >> step-$SLURM_JOB_ID.txt" USR1; touch started-$SLURM_JOB_ID; i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done' &
        i=0
        while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
        """);
    int id = submit("-o", "out-%j.txt", "steps.sh");
    assertThat(eventually(() -> Files.exists(work.resolve("started-" + id)), 30))
        .as(() -> readQuietly(work.resolve("out-" + id + ".txt"))).isTrue();
    assertThat(cluster.as(alice, "scancel", "-s", "USR1", String.valueOf(id)).exitCode()).isZero();
    assertThat(eventually(() -> Files.exists(work.resolve("step-" + id + ".txt")), 10)).isTrue();
    Thread.sleep(1000);
    assertThat(work.resolve("shell-" + id + ".txt")).doesNotExist();
    assertThat(cluster.state(id)).isEqualTo("RUNNING");
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(" + e.getMessage() + ")";
    }
  }
}

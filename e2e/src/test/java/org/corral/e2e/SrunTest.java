package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * srun on a real cluster from `corral up` (2 nodes x 4 CPUs), as an unprivileged user: its own
 * allocation, tasks on both nodes, labelled output, stdin, exit codes and Slurm's messages.
 */
class SrunTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static Path work;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.up(2, 4, 2000);
    work = cluster.workDir(alice);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void tasksRunOnEveryNodeOfItsOwnAllocationWithLabels() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-N2", "-n3", "-l",
        "sh", "-c", "echo $SLURM_PROCID $SLURM_NODEID $SLURM_LOCALID $(id -un)");
    assertThat(r.err()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(StepsSupport.lines(r.out())).containsExactlyInAnyOrder(
        "0: 0 0 0 " + TestUsers.ALICE, "1: 1 0 1 " + TestUsers.ALICE, "2: 2 1 0 " + TestUsers.ALICE);
  }

  @Test
  void theTasksSeeSlurmsVariables() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-N2", "-n3", "-c1", "-o", "0", "env");
    assertThat(r.exitCode()).isZero();
    Map<String, String> env = StepsSupport.lines(r.out()).stream().filter(l -> l.contains("="))
        .collect(Collectors.toMap(l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1),
            (a, b) -> a));
    assertThat(env).containsEntry("SLURM_PROCID", "0").containsEntry("SLURM_NODEID", "0")
        .containsEntry("SLURM_LOCALID", "0").containsEntry("SLURM_STEP_ID", "0")
        .containsEntry("SLURM_STEPID", "0").containsEntry("SLURM_NTASKS", "3")
        .containsEntry("SLURM_NPROCS", "3").containsEntry("SLURM_STEP_NUM_TASKS", "3")
        .containsEntry("SLURM_NNODES", "2").containsEntry("SLURM_STEP_NUM_NODES", "2")
        .containsEntry("SLURM_JOB_NUM_NODES", "2").containsEntry("SLURM_TASKS_PER_NODE", "2,1")
        .containsEntry("SLURM_STEP_TASKS_PER_NODE", "2,1").containsEntry("SLURM_CPUS_PER_TASK", "1")
        .containsEntry("SLURM_JOB_NAME", "env").containsEntry("SLURM_SUBMIT_DIR", work.toString())
        .containsEntry("SLURM_GTIDS", "0,1")
        .containsKeys("SLURM_JOB_ID", "SLURM_JOBID", "SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST",
            "SLURM_NODELIST", "SLURM_LAUNCH_NODE_IPADDR", "SLURM_SRUN_COMM_HOST", "SLURM_SRUN_COMM_PORT",
            "SLURM_CLUSTER_NAME", "SLURM_SUBMIT_HOST", "SLURM_JOB_PARTITION", "SLURM_JOB_CPUS_PER_NODE",
            "SLURMD_NODENAME", "SLURM_TASK_PID", "SLURM_CPUS_ON_NODE", "SLURM_UMASK");
    assertThat(env.get("SLURM_JOB_ID")).isEqualTo(env.get("SLURM_JOBID"));
  }

  @Test
  void theExitCodeIsTheHighestTasksAndFailuresAreReported() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-N2", "-n2", "sh", "-c", "exit $((SLURM_PROCID + 2))");
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(StepsSupport.lines(r.err())).containsExactlyInAnyOrder(
        "srun: error: n1: task 0: Exited with exit code 2", "srun: error: n2: task 1: Exited with exit code 3");
  }

  @Test
  void killedTasksAreReportedAsSlurmDoes() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-N1", "-n2", "sh", "-c", "kill -9 $$");
    assertThat(r.exitCode()).isEqualTo(137);
    assertThat(r.err()).matches("srun: error: n\\d: tasks 0-1: Killed\nsrun: Force Terminated StepId=\\d+\\.0\n");
  }

  @Test
  void stdinReachesEveryTaskAndOptionsStopAtTheProgram() throws Exception {
    LocalCluster.Result r = cluster.withInput(alice, work, "a\nb\n", "srun", "-n2", "-l", "cat");
    assertThat(r.exitCode()).isZero();
    assertThat(StepsSupport.lines(r.out())).containsExactlyInAnyOrder("0: a", "0: b", "1: a", "1: b");
    LocalCluster.Result one = cluster.withInput(alice, work, "x\n", "srun", "-n2", "-l", "-i", "1", "cat");
    assertThat(StepsSupport.lines(one.out())).containsExactly("1: x");
    LocalCluster.Result args = cluster.as(alice, work, "srun", "-n1", "echo", "-n", "2");
    assertThat(args.out()).isEqualTo("2");
  }

  @Test
  void refusedAllocationsSayWhy() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-p", "nosuch", "true");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).endsWith("srun: error: Unable to allocate resources: Invalid partition name specified\n");
  }

  @Test
  void theAllocationEndsWithTheStep() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "-n1", "sh", "-c", "echo $SLURM_JOB_ID");
    int job = Integer.parseInt(r.out().trim());
    assertThat(cluster.awaitState(job, "COMPLETED", 30)).isEqualTo("COMPLETED");
  }
}

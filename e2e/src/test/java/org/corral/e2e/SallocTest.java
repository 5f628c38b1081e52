package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * salloc on a real cluster (2 nodes x 4 CPUs): the allocation's variables for the command, srun
 * inside it creating steps, exit codes, --no-shell, and steps waiting for busy CPUs.
 */
class SallocTest {
  private static LocalCluster cluster;
  private static TestUsers.User bob;
  private static Path work;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.up(2, 4, 2000);
    work = cluster.workDir(bob);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theCommandGetsTheAllocationsVariablesAndItsExitCodeIsSallocs() throws Exception {
    LocalCluster.Result r = cluster.as(bob, work, "salloc", "-N2", "-n3", "sh", "-c",
        "echo $SLURM_JOB_ID $SLURM_NNODES $SLURM_JOB_NUM_NODES $SLURM_NTASKS $SLURM_JOB_NODELIST $SLURM_SUBMIT_DIR; exit 4");
    assertThat(r.exitCode()).isEqualTo(4);
    int job = StepsSupport.grantedJob(r.err());
    assertThat(r.out()).isEqualTo(job + " 2 2 3 n[1-2] " + work + "\n");
    assertThat(r.err()).isEqualTo("salloc: Granted job allocation " + job + "\n"
        + "salloc: Relinquishing job allocation " + job + "\n");
    assertThat(cluster.awaitState(job, "FAILED", 30)).isEqualTo("FAILED"); // the command exited 4
  }

  @Test
  void srunInsideTheAllocationCreatesNumberedSteps() throws Exception {
    LocalCluster.Result r = cluster.as(bob, work, "salloc", "-N2", "sh", "-c",
        "srun -l hostname >/dev/null && srun -l sh -c 'echo $SLURM_JOB_ID.$SLURM_STEP_ID $SLURM_NODEID'");
    assertThat(r.exitCode()).isZero();
    int job = StepsSupport.grantedJob(r.err());
    assertThat(StepsSupport.lines(r.out())).containsExactlyInAnyOrder("0: " + job + ".1 0", "1: " + job + ".1 1");
  }

  @Test
  void anExclusiveStepWaitsForBusyCpus() throws Exception {
    LocalCluster.Result r = cluster.as(bob, work, "salloc", "-N1", "-n2", "sh", "-c",
        "srun --exclusive -n2 sleep 3 & sleep 1; srun --exclusive -n2 true; echo rc=$?; wait");
    int job = StepsSupport.grantedJob(r.err());
    assertThat(r.out()).isEqualTo("rc=0\n");
    assertThat(r.err()).contains("srun: Job " + job
        + " step creation temporarily disabled, retrying (Requested nodes are busy)\n"
        + "srun: Step created for job " + job + "\n");
  }

  @Test
  void stepsThatCannotFitTheAllocationAreRefusedWithSlurmsMessages() throws Exception {
    LocalCluster.Result r = cluster.as(bob, work, "salloc", "-N2", "-n3", "sh", "-c",
        "srun -N3 true; echo rc=$?; srun -n20 true; echo rc=$?");
    int job = StepsSupport.grantedJob(r.err());
    assertThat(r.out()).isEqualTo("rc=1\nrc=1\n");
    assertThat(r.err()).contains("srun: error: Only allocated 2 nodes asked for 3\n",
        "srun: error: Unable to create step for job " + job + ": More processors requested than permitted\n");
  }

  @Test
  void noShellLeavesTheAllocationRunning() throws Exception {
    LocalCluster.Result r = cluster.as(bob, work, "salloc", "-N1", "--no-shell");
    assertThat(r.exitCode()).isZero();
    int job = StepsSupport.grantedJob(r.err());
    assertThat(cluster.state(job)).isEqualTo("RUNNING");
    assertThat(cluster.as(bob, work, "scancel", String.valueOf(job)).exitCode()).isZero();
  }

  @Test
  void aMissingCommandIsReportedAndTheAllocationReleased() throws Exception {
    LocalCluster.Result r = cluster.as(bob, work, "salloc", "-N1", "no_such_command_xyz");
    assertThat(r.exitCode()).isEqualTo(1);
    int job = StepsSupport.grantedJob(r.err());
    assertThat(r.err()).contains("salloc: error: _fork_command: Unable to find command \"no_such_command_xyz\"\n"
        + "salloc: Relinquishing job allocation " + job + "\n");
    assertThat(cluster.awaitState(job, "FAILED", 30)).isEqualTo("FAILED");
  }
}

package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Preemption and suspension through the commands, on a one-node cluster run by root with jobs of
 * two users: a job of a low-tier partition is requeued (REQUEUE) or suspended (SUSPEND) for a job
 * of a high-tier one, and an operator suspends and resumes a job whose counter really stops.
 */
class PreemptionTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.upWithConfig(1, """
        ClusterName=preempt
        PreemptType=preempt/partition_prio
        PreemptMode=SUSPEND,GANG
        DefMemPerCPU=100
        NodeName=q1 CPUs=2 RealMemory=1000
        PartitionName=low Nodes=ALL Default=YES MaxTime=INFINITE State=UP PriorityTier=1 PreemptMode=REQUEUE
        PartitionName=stoppable Nodes=ALL MaxTime=INFINITE State=UP PriorityTier=1
        PartitionName=high Nodes=ALL MaxTime=INFINITE State=UP PriorityTier=2 PreemptMode=OFF
        """);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void cancelAll() throws Exception {
    cluster.cancelAllOf(alice, bob);
  }

  private static String show(int job) throws Exception {
    return cluster.as(null, "scontrol", "show", "job", String.valueOf(job)).out();
  }

  @Test
  void aHighTierJobRequeuesTheLowTierJobInItsWay() throws Exception {
    Path aw = cluster.workDir(alice);
    Path bw = cluster.workDir(bob);
    int low = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-p", "low", "-n2", "--requeue", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(low, "RUNNING", 30)).isEqualTo("RUNNING");
    int high = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-p", "high", "-n2", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(high, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.state(low)).isEqualTo("PENDING");
    assertThat(show(low)).contains("JobState=PENDING Reason=BeginTime").contains("Restarts=1");

    int noRequeue = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-p", "low", "-n2", "--no-requeue",
        "--wrap", "sleep 300"));
    cluster.as(null, "scancel", String.valueOf(high), String.valueOf(low));
    assertThat(cluster.awaitState(noRequeue, "RUNNING", 30)).isEqualTo("RUNNING");
    int second = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-p", "high", "-n2", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(second, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.awaitState(noRequeue, "PREEMPTED", 30)).isEqualTo("PREEMPTED"); // cancelled instead
  }

  @Test
  void suspendModeStopsTheLowTierJobUntilTheHighTierOneEnds() throws Exception {
    Path aw = cluster.workDir(alice);
    Path bw = cluster.workDir(bob);
    int low = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-p", "stoppable", "-n2", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(low, "RUNNING", 30)).isEqualTo("RUNNING");
    int high = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-p", "high", "-n2", "--wrap", "sleep 3"));
    assertThat(cluster.awaitState(high, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.state(low)).isEqualTo("SUSPENDED");
    assertThat(cluster.awaitState(low, "RUNNING", 60)).isEqualTo("RUNNING");
    assertThat(cluster.state(high)).isEqualTo("COMPLETED");
  }

  @Test
  void anOperatorSuspendsAndResumesAJobWhoseProcessesReallyStop() throws Exception {
    Path aw = cluster.workDir(alice);
    Path counter = aw.resolve("counter");
    int job = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-p", "low", "-n1", "--wrap",
        "while true; do echo x >> " + counter + "; sleep 0.1; done"));
    assertThat(cluster.awaitState(job, "RUNNING", 30)).isEqualTo("RUNNING");
    awaitGrowth(counter, 0);

    LocalCluster.Result denied = cluster.as(alice, aw, "scontrol", "suspend", String.valueOf(job));
    assertThat(denied.exitCode()).isEqualTo(1);
    assertThat(denied.err()).isEqualTo("Access/permission denied for job " + job + "\n");

    LocalCluster.Result suspend = cluster.as(null, "scontrol", "suspend", String.valueOf(job));
    assertThat(suspend.exitCode()).isZero();
    assertThat(suspend.out() + suspend.err()).isEmpty();
    assertThat(cluster.as(null, "squeue", "-h", "-j", String.valueOf(job), "-o", "%t").out().strip()).isEqualTo("S");
    assertThat(show(job)).contains("JobState=SUSPENDED").doesNotContain("SuspendTime=None");
    Thread.sleep(1000); // SIGSTOP reached the job: let a write that was under way land
    long stopped = Files.size(counter);
    Thread.sleep(1500);
    assertThat(Files.size(counter)).isEqualTo(stopped); // stopped: nothing written while suspended

    LocalCluster.Result again = cluster.as(null, "scontrol", "resume", String.valueOf(job));
    assertThat(again.exitCode()).isZero();
    assertThat(cluster.state(job)).isEqualTo("RUNNING");
    awaitGrowth(counter, stopped);
    LocalCluster.Result notSuspended = cluster.as(null, "scontrol", "resume", String.valueOf(job));
    assertThat(notSuspended.err()).isEqualTo("Job is not suspended for job " + job + "\n");
  }

  /** Waits until the file has grown past {@code size} (the job runs). */
  private static void awaitGrowth(Path file, long size) throws Exception {
    for (int i = 0; i < 300 && (!Files.exists(file) || Files.size(file) <= size); i++) {
      Thread.sleep(100);
    }
    assertThat(Files.size(file)).isGreaterThan(size);
  }
}

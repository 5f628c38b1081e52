package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sharing nodes through the commands, with jobs of two users: alice's --exclusive=user job keeps
 * bob's job off its node until it ends, and two -s jobs share a node's CPUs in an
 * OverSubscribe=YES partition while a job that does not ask waits.
 */
class OverSubscribeTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.upWithConfig(1, """
        ClusterName=share
        DefMemPerCPU=100
        NodeName=o1 CPUs=2 RealMemory=1000
        PartitionName=plain Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        PartitionName=shared Nodes=ALL MaxTime=INFINITE State=UP OverSubscribe=YES:2
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

  private static String squeue(int job, String format) throws Exception {
    return cluster.as(null, "squeue", "-h", "-j", String.valueOf(job), "-o", format).out().strip();
  }

  /** Waits until a scheduling pass has given the pending job a reason. */
  private static void awaitReason(int job) throws Exception {
    for (int i = 0; i < 300 && squeue(job, "%r").equals("None"); i++) {
      Thread.sleep(100);
    }
  }

  @Test
  void anExclusiveUserJobKeepsOtherUsersOffItsNode() throws Exception {
    Path aw = cluster.workDir(alice);
    Path bw = cluster.workDir(bob);
    int mine = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "--exclusive=user", "-n1", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(mine, "RUNNING", 30)).isEqualTo("RUNNING");
    int theirs = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-n1", "--wrap", "sleep 300"));
    awaitReason(theirs);
    int again = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-n1", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(again, "RUNNING", 30)).isEqualTo("RUNNING"); // her own may join it
    assertThat(cluster.state(theirs)).isEqualTo("PENDING");
    assertThat(squeue(theirs, "%r")).isEqualTo("Resources");
    assertThat(cluster.as(null, "scontrol", "show", "job", String.valueOf(mine)).out())
        .contains(" OverSubscribe=USER ").contains("NumCPUs=1 ");
    assertThat(squeue(again, "%h")).isEqualTo("OK");

    cluster.as(null, "scancel", String.valueOf(mine), String.valueOf(again));
    assertThat(cluster.awaitState(theirs, "RUNNING", 30)).isEqualTo("RUNNING");
  }

  @Test
  void twoOversubscribingJobsShareTheNodesCpus() throws Exception {
    Path aw = cluster.workDir(alice);
    Path bw = cluster.workDir(bob);
    assertThat(cluster.as(null, "scontrol", "show", "partition", "shared").out()).contains(" OverSubscribe=YES:2\n");
    int first = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-p", "shared", "-s", "-n2", "--wrap", "sleep 300"));
    int second = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-p", "shared", "--oversubscribe", "-n2",
        "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(first, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.awaitState(second, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(squeue(second, "%h %N")).isEqualTo("YES o1");
    assertThat(cluster.as(null, "sinfo", "-h", "-p", "shared", "-o", "%C").out().strip()).isEqualTo("2/0/0/2");

    int plain = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-p", "shared", "-n1", "--wrap", "sleep 300"));
    int third = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-p", "shared", "-s", "-n1", "--wrap", "sleep 300"));
    awaitReason(third); // the scheduler has looked at both
    assertThat(cluster.state(plain)).isEqualTo("PENDING"); // every CPU is held by a sharing job
    assertThat(cluster.state(third)).isEqualTo("PENDING"); // two jobs on each CPU already
    assertThat(cluster.as(null, "scontrol", "show", "job", String.valueOf(plain)).out()).contains(" OverSubscribe=OK ");
  }
}

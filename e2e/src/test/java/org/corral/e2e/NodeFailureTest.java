package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * A cluster described by a slurm.conf (`corral up --config`): when a node daemon dies, the node
 * goes DOWN after SlurmdTimeout (`*` in sinfo), its job ends NODE_FAIL, and the node returns when
 * its daemon is started again.
 */
class NodeFailureTest {
  private static final String CONF = """
      ClusterName=failing
      SlurmdTimeout=4
      ReturnToService=2
      KillWait=2
      DefMemPerCPU=100
      NodeName=a[1-2] CPUs=2 RealMemory=1000
      PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;

  @Test
  void deadNodeGoesDownAndItsJobFails() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    try (LocalCluster cluster = LocalCluster.upWithConfig(2, CONF)) {
      assertThat(cluster.as(null, "sinfo", "-h", "-o", "%P %D %t %N").out()).isEqualTo("main* 2 idle a[1-2]\n");
      Path work = cluster.root;
      int first = LocalCluster.jobId(cluster.as(null, work, "sbatch", "-c", "2", "--no-requeue", "-o", "/dev/null", "--wrap", "sleep 300"));
      int second = LocalCluster.jobId(cluster.as(null, work, "sbatch", "-c", "2", "--no-requeue", "-o", "/dev/null", "--wrap", "sleep 300"));
      assertThat(cluster.awaitState(second, "RUNNING", 30)).isEqualTo("RUNNING");
      String node = cluster.as(null, "squeue", "-h", "-j", String.valueOf(second), "-o", "%N").out().trim();
      int onOther = node.equals("a2") ? first : second;
      int onDead = node.equals("a2") ? second : first;

      new ProcessBuilder("kill", "-9", String.valueOf(cluster.pid("slurmd-a2.pid"))).start().waitFor();
      assertThat(cluster.awaitState(onDead, "NODE_FAIL", 30)).isEqualTo("NODE_FAIL");
      assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).contains("a2 down*");
      assertThat(cluster.state(onOther)).isEqualTo("RUNNING");

      assertThat(cluster.corral("up", "--dir", cluster.dir.toString()).exitCode()).isZero();
      assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).contains("a2 idle");
      // The restarted daemon re-adopted the failed job; the controller had it killed and forgotten.
      Path spool = cluster.dir.resolve("spool/a2/job" + String.format("%05d", onDead));
      for (int i = 0; i < 100 && java.nio.file.Files.exists(spool); i++) {
        Thread.sleep(200);
      }
      assertThat(spool).doesNotExist();
    }
  }

  @Test
  void jobOfADeadNodeIsRequeuedByDefault() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    try (LocalCluster cluster = LocalCluster.upWithConfig(2, CONF)) {
      Path work = cluster.root;
      // JobRequeue is 1 unless slurm.conf says otherwise: the job may be requeued.
      int id = LocalCluster.jobId(cluster.as(null, work, "sbatch", "-c", "2", "-o", "/dev/null", "--wrap", "sleep 300"));
      assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
      String node = cluster.as(null, "squeue", "-h", "-j", String.valueOf(id), "-o", "%N").out().trim();

      new ProcessBuilder("kill", "-9", String.valueOf(cluster.pid("slurmd-" + node + ".pid"))).start().waitFor();
      assertThat(cluster.awaitState(id, "PENDING", 30)).isEqualTo("PENDING");
      String shown = cluster.as(null, "scontrol", "show", "job", String.valueOf(id)).out();
      assertThat(shown).contains("JobState=PENDING Reason=BeginTime", "Requeue=1 Restarts=1", "NodeList=\n");
      assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %t").out()).contains(node + " down*");
    }
  }
}

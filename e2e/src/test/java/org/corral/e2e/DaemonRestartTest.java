package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Daemons killed while jobs run, with real processes: a job outlives its node daemon's kill -9
 * and is re-adopted by the restarted daemon; a job that ends while the controller is down has
 * its end recorded once the controller is back. Each job runs exactly once.
 */
class DaemonRestartTest {

  @Test
  void jobsOutliveTheirDaemonsAndEndRecordedOnce() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster cluster = LocalCluster.up(1, 4, 4000)) {
      Path work = cluster.workDir(alice);

      // slurmd: killed and restarted while the job runs.
      int first = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-o", "first-%j.out", "--wrap",
          "echo start; sleep 5; echo end"));
      assertThat(cluster.awaitState(first, "RUNNING", 30)).isEqualTo("RUNNING");
      Thread.sleep(1000);
      kill9(cluster.pid("slurmd-n1.pid"));
      assertThat(cluster.corral("up", "--dir", cluster.dir.toString()).exitCode()).isZero();
      assertThat(cluster.awaitState(first, "COMPLETED", 60)).isEqualTo("COMPLETED");
      assertThat(Files.readString(work.resolve("first-" + first + ".out"))).isEqualTo("start\nend\n");

      // slurmctld: down while the job ends; the end is reported again until it is back.
      int second = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-o", "second-%j.out", "--wrap",
          "echo once; sleep 2"));
      assertThat(cluster.awaitState(second, "RUNNING", 30)).isEqualTo("RUNNING");
      kill9(cluster.pid("slurmctld.pid"));
      Thread.sleep(4000); // the job ends meanwhile
      assertThat(cluster.corral("up", "--dir", cluster.dir.toString()).exitCode()).isZero();
      assertThat(cluster.awaitState(second, "COMPLETED", 60)).isEqualTo("COMPLETED");
      Thread.sleep(2000); // a relaunch, if any, would have happened by now
      assertThat(Files.readString(work.resolve("second-" + second + ".out"))).isEqualTo("once\n");
      String shown = cluster.as(alice, "scontrol", "show", "job", String.valueOf(second)).out();
      assertThat(shown).contains("JobState=COMPLETED", "Restarts=0", "ExitCode=0:0");
    }
  }

  private static void kill9(long pid) throws Exception {
    new ProcessBuilder("kill", "-9", String.valueOf(pid)).inheritIO().start().waitFor();
  }
}

package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Job arrays through sbatch, squeue and scancel, run for real as an unprivileged user. */
class ArraysTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.up(2, 4, 2000);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void throttledArrayRunsEveryTaskWithItsVariablesAndFiles() throws Exception {
    Path work = cluster.workDir(alice);
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--array=0-5%2", "-o", "t-%A_%a.out",
        "--wrap", "echo task=$SLURM_ARRAY_TASK_ID of=$SLURM_ARRAY_JOB_ID count=$SLURM_ARRAY_TASK_COUNT"
            + " max=$SLURM_ARRAY_TASK_MAX; sleep 2"));
    String queue = "";
    for (int i = 0; i < 100 && queue.lines().filter(l -> l.contains(" R ")).count() < 2; i++) {
      queue = cluster.as(null, "squeue", "-h", "-j", String.valueOf(id), "-o", "%i %t %r").out();
      Thread.sleep(50);
    }
    assertThat(queue).contains(id + "_[2-5%2] PD JobArrayTaskLimit");
    assertThat(queue.lines().filter(l -> l.contains(" R "))).hasSize(2);
    assertThat(cluster.as(null, "squeue", "-h", "-r", "-t", "PD", "-j", String.valueOf(id), "-o", "%i").out()
        .lines().toList()).containsExactly(id + "_2", id + "_3", id + "_4", id + "_5");

    for (int t = 0; t <= 5; t++) {
      Path out = work.resolve("t-" + id + "_" + t + ".out");
      for (int i = 0; i < 600 && !(Files.exists(out) && Files.readString(out).contains("max=")); i++) {
        Thread.sleep(100);
      }
      assertThat(Files.readString(out)).isEqualTo("task=" + t + " of=" + id + " count=6 max=5\n");
      assertThat(Files.getOwner(out).getName()).isEqualTo(TestUsers.ALICE);
    }
  }

  @Test
  void scancelTakesOneTaskOrTheWholeArrayAndOnlyFromItsOwner() throws Exception {
    Path work = cluster.workDir(bob);
    int id = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "--array=1-4", "-H", "--wrap", "true"));
    assertThat(cluster.as(alice, "scancel", id + "_2").exitCode()).isNotZero();
    assertThat(cluster.as(bob, "scancel", id + "_2").exitCode()).isZero();
    assertThat(cluster.as(null, "squeue", "-h", "-j", String.valueOf(id), "-o", "%i").out().strip())
        .isEqualTo(id + "_[1,3-4]");
    assertThat(cluster.as(bob, "scancel", String.valueOf(id)).exitCode()).isZero();
    assertThat(cluster.awaitState(id, "CANCELLED", 30)).isEqualTo("CANCELLED");
  }
}

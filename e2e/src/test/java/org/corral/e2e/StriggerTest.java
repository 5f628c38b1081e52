package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * strigger on a real cluster (2 nodes): triggers fire on node and job events and run their
 * program with the event's nodes or job id; who may set and clear them follows Slurm 22.05
 * (only root and SlurmUser set them), with its messages.
 */
class StriggerTest {
  private static LocalCluster cluster;
  private static TestUsers.User bob;
  private static Path program;
  private static Path log;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.up(2, 2, 1000);
    log = cluster.root.resolve("fired.log");
    program = cluster.root.resolve("on-event");
    Files.writeString(program, "#!/bin/sh\necho \"$(id -un) $*\" >> " + log + "\n");
    Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Waits (bounded) until the log holds the line. */
  private static boolean fired(String line) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log) && Files.readAllLines(log).contains(line)) {
        return true;
      }
      Thread.sleep(500);
    }
    return false;
  }

  private static String strigger(String... args) throws Exception {
    String[] all = new String[args.length + 1];
    all[0] = "strigger";
    System.arraycopy(args, 0, all, 1, args.length);
    LocalCluster.Result r = cluster.as(null, all);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r.out();
  }

  @Test
  void aNodeGoingDownRunsTheProgramWithTheNodeOnceAndTheTriggerIsGone() throws Exception {
    strigger("--set", "-nn2", "--down", "--program=" + program + " node-down");
    assertThat(strigger("--get", "-N", "--down")).matches(
        " +\\d+ node           n2 down                                     0 root           " + program + " node-down\n");
    assertThat(cluster.as(null, "scontrol", "update", "nodename=n2", "state=down", "reason=test").exitCode()).isZero();
    try {
      assertThat(fired("root node-down n2")).isTrue();
      assertThat(strigger("--get", "--down")).isEmpty();
    } finally {
      cluster.as(null, "scontrol", "update", "nodename=n2", "state=resume");
    }
  }

  @Test
  void jobTriggersFireBeforeTheTimeLimitAndAtTheEnd() throws Exception {
    int job = LocalCluster.jobId(cluster.as(bob, cluster.workDir(bob), "sbatch", "-t", "1", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(job, "RUNNING", 30)).isEqualTo("RUNNING");
    strigger("--set", "--jobid=" + job, "--time", "--offset=-50", "--program=" + program + " time");
    strigger("--set", "--jobid=" + job, "--fini", "--program=" + program + " fini");
    assertThat(fired("root time " + job)).isTrue(); // 10 s after the start
    assertThat(cluster.as(null, "scancel", String.valueOf(job)).exitCode()).isZero();
    assertThat(fired("root fini " + job)).isTrue();
    assertThat(strigger("--get", "-j", String.valueOf(job))).isEmpty();
  }

  @Test
  void onlyRootSetsTriggersAndOnlyTheirCreatorClearsThem() throws Exception {
    LocalCluster.Result set = cluster.as(bob, "strigger", "--set", "--node", "--up", "--program=" + program);
    assertThat(set.exitCode()).isEqualTo(1);
    assertThat(set.err()).isEqualTo("slurm_set_trigger: Access/permission denied\n");
    strigger("--set", "-nn1", "--idle", "--offset=3600", "--flags=PERM", "--program=" + program);
    String listed = cluster.as(bob, "strigger", "--get", "--idle").out();
    assertThat(listed).startsWith("TRIG_ID RES_TYPE   RES_ID TYPE                                OFFSET USER     FLAGS PROGRAM\n")
        .contains(" n1 idle                                  3600 root     PERM  " + program + "\n");
    String id = listed.lines().skip(1).findFirst().orElseThrow().strip().split(" +")[0];
    LocalCluster.Result clear = cluster.as(bob, "strigger", "--clear", "--id=" + id);
    assertThat(clear.exitCode()).isEqualTo(1);
    assertThat(clear.err()).isEqualTo("slurm_clear_trigger: Access/permission denied\n");
    strigger("--clear", "--id=" + id);
    LocalCluster.Result again = cluster.as(null, "strigger", "--clear", "--id=" + id);
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.err()).isEqualTo("slurm_clear_trigger: No such process\n");
    LocalCluster.Result badJob = cluster.as(null, "strigger", "--set", "-j", "999999", "--fini", "-p", program.toString());
    assertThat(badJob.err()).isEqualTo("slurm_set_trigger: Invalid job id specified\n");
    LocalCluster.Result badNode = cluster.as(null, "strigger", "--set", "-nn9", "--down", "-p", program.toString());
    assertThat(badNode.err()).isEqualTo("slurm_set_trigger: Invalid node name specified\n");
  }
}

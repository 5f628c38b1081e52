package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * PrivateData as two plain users see it, with the words Slurm 22.05 answers (recorded on a
 * reference); and a requeued job's accounting rows (sacct -D) as that reference keeps them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrivateDataTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.up(1, 4, 4000);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** What the user's command printed: stdout, or stderr and the exit code where it failed. */
  private static LocalCluster.Result as(TestUsers.User u, String... args) throws Exception {
    return u == null ? cluster.as(null, args) : cluster.as(u, cluster.workDir(u), args);
  }

  /** The job ids a listing printed, one a line, in order of id (squeue orders by priority). */
  private static String ids(LocalCluster.Result r) {
    return r.out().lines().map(String::trim).sorted(java.util.Comparator.comparingInt(Integer::parseInt))
        .map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
  }

  private static int held(TestUsers.User u, String name) throws Exception {
    return LocalCluster.jobId(as(u, "sbatch", "-H", "-J", name, "--wrap", "true"));
  }

  /** sacct's lines once accounting has them (the controller ships records in the background). */
  private static String sacctOnce(TestUsers.User u, String expected, String... args) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String out = "";
    while (System.nanoTime() < deadline) {
      out = as(u, args).out();
      if (out.equals(expected)) {
        return out;
      }
      Thread.sleep(250);
    }
    return out;
  }

  @Test
  @Order(1)
  void aRequeuedRunKeepsItsRowAndTheJobPendsInANewOne() throws Exception {
    cluster.cancelAllOf(alice, bob);
    int id = LocalCluster.jobId(as(alice, "sbatch", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.as(null, "scontrol", "requeue", String.valueOf(id)).exitCode()).isZero();
    assertThat(cluster.awaitState(id, "PENDING", 30)).isEqualTo("PENDING");
    // Slurm 22.05: "9|REQUEUED|0:0" and "9.batch|CANCELLED|0:15", then "9|PENDING|0:0"; one row without -D
    String j = String.valueOf(id);
    assertThat(sacctOnce(null, j + "|REQUEUED|0:0\n" + j + ".batch|CANCELLED|0:15\n" + j + "|PENDING|0:0\n",
        "sacct", "-D", "-n", "-P", "-j", j, "-o", "jobid,state,exitcode"))
        .isEqualTo(j + "|REQUEUED|0:0\n" + j + ".batch|CANCELLED|0:15\n" + j + "|PENDING|0:0\n");
    assertThat(as(null, "sacct", "-n", "-P", "-j", j, "-o", "jobid,state").out()).isEqualTo(j + "|PENDING\n");
    cluster.as(null, "scancel", j);
  }

  @Test
  @Order(2)
  void withPrivateDataEachUserSeesItsOwn() throws Exception {
    cluster.cancelAllOf(alice, bob);
    int a = held(alice, "alicejob");
    int b = held(bob, "bobjob");
    String both = a + "\n" + b + "\n";
    assertThat(ids(as(alice, "squeue", "-h", "-o", "%i"))).as("no PrivateData").isEqualTo(both);
    assertThat(as(alice, "scontrol", "show", "job", String.valueOf(b)).out()).contains("JobName=bobjob");
    String ab = a + "," + b;
    assertThat(sacctOnce(alice, both, "sacct", "-X", "-n", "-P", "-o", "jobid", "-j", ab)).isEqualTo(both);

    // slurm.conf and slurmdbd.conf with PrivateData; the cluster restarted on them
    assertThat(cluster.corral("down", "--dir", cluster.dir.toString()).exitCode()).isZero();
    Files.writeString(cluster.dir.resolve("slurm.conf"), "PrivateData=jobs,nodes,partitions\n",
        StandardOpenOption.APPEND);
    Files.writeString(cluster.dir.resolve("slurmdbd.conf"), "PrivateData=jobs,users,accounts,events\n",
        StandardOpenOption.APPEND);
    assertThat(cluster.corral("up", "--dir", cluster.dir.toString()).exitCode()).isZero();

    assertThat(as(alice, "squeue", "-h", "-o", "%i").out()).isEqualTo(a + "\n");
    assertThat(as(bob, "squeue", "-h", "-o", "%i").out()).isEqualTo(b + "\n");
    assertThat(ids(as(null, "squeue", "-h", "-o", "%i"))).as("root").isEqualTo(both);
    assertThat(as(alice, "squeue", "-h", "-u", bob.name()).out()).isEmpty();
    LocalCluster.Result other = as(alice, "squeue", "-j", String.valueOf(b));
    assertThat(other.exitCode()).isEqualTo(1);
    assertThat(other.err()).isEqualTo("slurm_load_jobs error: Invalid job id specified\n");
    LocalCluster.Result show = as(alice, "scontrol", "show", "job", String.valueOf(b));
    assertThat(show.exitCode()).isEqualTo(1);
    assertThat(show.out()).isEmpty();
    assertThat(show.err()).isEqualTo("slurm_load_jobs error: Invalid job id specified\n");
    assertThat(as(bob, "scontrol", "show", "job", String.valueOf(b)).out()).contains("JobName=bobjob");

    LocalCluster.Result nodes = as(alice, "scontrol", "show", "node");
    assertThat(nodes.exitCode()).isEqualTo(1);
    assertThat(nodes.err()).isEqualTo("slurm_load_node error: Access/permission denied\n");
    LocalCluster.Result parts = as(alice, "scontrol", "show", "partition");
    assertThat(parts.exitCode()).isEqualTo(1);
    assertThat(parts.err()).isEqualTo("slurm_load_partitions error: Access/permission denied\n");
    LocalCluster.Result sinfo = as(alice, "sinfo");
    assertThat(sinfo.exitCode()).isEqualTo(1);
    assertThat(sinfo.err()).isEqualTo("slurm_load_partitions: Access/permission denied\n");
    assertThat(as(null, "sinfo", "-h", "-o", "%D").out()).as("root").isEqualTo("1\n");

    assertThat(as(alice, "sacct", "-X", "-n", "-P", "-o", "jobid", "-j", ab).out()).isEqualTo(a + "\n");
    assertThat(as(alice, "sacct", "-X", "-n", "-P", "-o", "jobid", "-j", String.valueOf(b)).out()).isEmpty();
    assertThat(as(bob, "sacct", "-X", "-n", "-P", "-o", "jobid", "-u", alice.name()).out()).isEmpty();
    assertThat(as(null, "sacct", "-X", "-n", "-P", "-o", "jobid", "-j", ab).out()).as("root").isEqualTo(both);
    LocalCluster.Result events = as(alice, "sacctmgr", "show", "event");
    assertThat(events.exitCode()).isEqualTo(1);
    assertThat(events.err()).isEqualTo("sacctmgr: error: Access/permission denied\n"
        + " Error with request: Access/permission denied\n");
    LocalCluster.Result accounts = as(alice, "sacctmgr", "show", "account");
    assertThat(accounts.exitCode()).isEqualTo(1);
    assertThat(accounts.err()).isEqualTo("sacctmgr: error: Access/permission denied\n Problem with query.\n");
    assertThat(as(null, "sacctmgr", "-n", "show", "account", "format=account").out()).contains("root");
    cluster.as(null, "scancel", String.valueOf(a), String.valueOf(b));
  }
}

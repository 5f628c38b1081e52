package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Priority and backfill through the commands users type, on a real cluster with weights: a
 * blocked wide job is planned (squeue --start, scontrol), short jobs of another user backfill
 * around it, longer ones wait, sprio shows the factors and sbatch --test-only the plan.
 */
class SchedulingTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.upWithConfig(2, """
        ClusterName=sched
        SchedulerType=sched/backfill
        PriorityType=priority/multifactor
        PriorityWeightJobSize=2000
        PriorityWeightPartition=3000
        PriorityWeightAge=1000
        PriorityMaxAge=1-0
        DefMemPerCPU=100
        NodeName=s[1-2] CPUs=4 RealMemory=2000
        PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void backfillPlansTheBlockedJobAndStartsOnlyWhatFitsBeforeIt() throws Exception {
    Path aw = cluster.workDir(alice);
    Path bw = cluster.workDir(bob);
    int running = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-n4", "-t", "10", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(running, "RUNNING", 30)).isEqualTo("RUNNING");
    int wide = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-N2", "-n8", "-t", "10", "--wrap", "sleep 1"));
    int tooLong = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-n1", "-t", "60", "--wrap", "sleep 300"));
    int shortOne = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-n1", "-t", "5", "--wrap", "sleep 300"));

    assertThat(cluster.awaitState(shortOne, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.state(tooLong)).isEqualTo("PENDING");
    String start = cluster.as(null, "squeue", "--start", "-h", "-j", String.valueOf(wide),
        "-o", "%i %S %Y %R").out().strip();
    assertThat(start).matches(wide + " \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d s\\[1-2\\] \\(Resources\\)");
    String show = cluster.as(null, "scontrol", "show", "job", String.valueOf(wide)).out();
    assertThat(show).contains("SchedNodeList=s[1-2]").doesNotContain("StartTime=Unknown");

    String sprio = cluster.as(null, "sprio").out();
    assertThat(sprio.lines().findFirst().orElseThrow())
        .isEqualTo("          JOBID PARTITION   PRIORITY       SITE        AGE    JOBSIZE  PARTITION");
    assertThat(sprio).contains(String.valueOf(wide)).contains(String.valueOf(tooLong))
        .doesNotContain(" " + shortOne + " ");
    // -N2 -n8 on 2 nodes of 4 CPUs: job size (2/2 + 8/8) / 2 = 1.0 of 2000
    assertThat(cluster.as(null, "sprio", "-j" + wide, "-h", "-o", "%J %P").out().strip()).isEqualTo("2000 3000");

    LocalCluster.Result test = cluster.as(bob, bw, "sbatch", "--test-only", "-n1", "-t", "5", "--wrap", "true");
    assertThat(test.exitCode()).isZero();
    assertThat(test.err()).matches("sbatch: Job \\d+ to start at \\S+ using 1 processors on nodes s\\d"
        + " in partition batch\\n");
    LocalCluster.Result impossible = cluster.as(bob, bw, "sbatch", "--test-only", "-N3", "--wrap", "true");
    assertThat(impossible.exitCode()).isEqualTo(1);

    String sdiag = cluster.as(bob, bw, "sdiag").out();
    assertThat(sdiag).containsPattern("Jobs submitted: \\d+\n").containsPattern("Jobs started:   \\d+\n")
        .containsPattern("\tREQUEST_SUBMIT_BATCH_JOB +\\( 4003\\) count:\\d+ ")
        .containsPattern("\t" + TestUsers.BOB + " +\\( *\\d+\\) count:");
    assertThat(cluster.as(bob, bw, "sdiag", "-r").exitCode()).isEqualTo(255);
    assertThat(cluster.as(null, "sdiag", "-r").out()).isEqualTo("Reset scheduling statistics\n");
  }

  @Test
  void ownersAndAdministratorsUpdateWhatEachMay() throws Exception {
    Path bw = cluster.workDir(bob);
    int id = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "--begin=now+1hour", "-t", "10", "--wrap", "true"));
    String job = String.valueOf(id);
    assertThat(cluster.as(bob, bw, "scontrol", "update", "JobId=" + job, "TimeLimit=20", "Nice=5",
        "JobName=renamed").exitCode()).isZero();
    LocalCluster.Result denied = cluster.as(bob, bw, "scontrol", "update", "JobId=" + job, "Nice=-5");
    assertThat(denied.exitCode()).isEqualTo(1);
    assertThat(denied.err()).isEqualTo("Access/permission denied for job " + id + "\n");
    assertThat(cluster.as(alice, cluster.workDir(alice), "scontrol", "update", "JobId=" + job, "Nice=9")
        .err()).isEqualTo("Access/permission denied for job " + id + "\n");
    assertThat(cluster.as(null, "scontrol", "update", "JobId=" + job, "Priority=77").exitCode()).isZero();
    assertThat(cluster.as(null, "scontrol", "show", "job", job).out())
        .contains("JobName=renamed", "Priority=77 Nice=5", "TimeLimit=00:20:00");
    cluster.as(null, "scancel", job);
  }
}

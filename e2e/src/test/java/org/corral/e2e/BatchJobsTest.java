package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A real cluster from `corral up`; jobs submitted by two unprivileged users run for real. */
class BatchJobsTest {
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
      assertThat(cluster.dir.resolve("slurmctld.pid")).doesNotExist();
    }
  }

  @Test
  void jobRunsAsItsUserInItsDirectoryAndWritesItsOutputFile() throws Exception {
    Path work = cluster.workDir(alice);
    Files.writeString(work.resolve("job.sh"), """
        #!/bin/sh
        #SBATCH --job-name=hello
        #SBATCH --output=hello-%j.out
        echo "user=$(id -un) dir=$(pwd) job=$SLURM_JOB_ID name=$SLURM_JOB_NAME nodes=$SLURM_JOB_NODELIST"
        echo "greeting=$GREETING"
        """);
    LocalCluster.Result r = cluster.as(alice, work, java.util.Map.of("GREETING", "hi there"), "sbatch", "job.sh");
    int id = LocalCluster.jobId(r);
    assertThat(r.err()).isEmpty();
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    Path out = work.resolve("hello-" + id + ".out");
    assertThat(Files.readString(out)).contains(
        "user=" + TestUsers.ALICE + " dir=" + work + " job=" + id + " name=hello nodes=n",
        "greeting=hi there");
    assertThat(Files.getOwner(out).getName()).isEqualTo(TestUsers.ALICE);
  }

  @Test
  void waitEndsWithTheJobsExitCodeAndVariablesWithADotInTheirNameReachTheJob() throws Exception {
    Path work = cluster.workDir(alice);
    // perl sees every variable (a #!/bin/sh script's dash drops A.B itself, under Slurm too)
    Files.writeString(work.resolve("dot.pl"), "#!/usr/bin/perl\nprint(($ENV{'A.B'} // 'unset') . \"\\n\"); exit 3;\n");
    LocalCluster.Result r = cluster.as(alice, work, java.util.Map.of("A.B", "dotted"), "sbatch", "--wait", "-o",
        "dot-%j.out", "dot.pl");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(3);
    int id = LocalCluster.jobId(r);
    assertThat(cluster.state(id)).isIn("FAILED", ""); // ended (and left COMPLETING) before sbatch returned
    assertThat(Files.readString(work.resolve("dot-" + id + ".out"))).isEqualTo("dotted\n");
  }

  @Test
  void usersCancelOnlyTheirOwnJobs() throws Exception {
    Path work = cluster.workDir(bob);
    int id = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");

    LocalCluster.Result denied = cluster.as(alice, "scancel", String.valueOf(id));
    assertThat(denied.exitCode()).isNotZero();
    assertThat(denied.err()).contains("Access/permission denied");
    assertThat(cluster.state(id)).isEqualTo("RUNNING");

    LocalCluster.Result ok = cluster.as(bob, "scancel", String.valueOf(id));
    assertThat(ok.exitCode()).isZero();
    assertThat(cluster.awaitState(id, "CANCELLED", 30)).isEqualTo("CANCELLED");
    String show = cluster.as(null, "scontrol", "show", "job", String.valueOf(id)).out();
    assertThat(show).contains("JobState=CANCELLED").contains("ExitCode=0:15");
  }

  @Test
  void interactiveCancelAsksForEachJobAndFiltersChooseJobs() throws Exception {
    Path work = cluster.workDir(bob);
    int a = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "-H", "-J", "first", "--wrap", "true"));
    int b = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "-H", "-J", "second", "--wrap", "true"));
    int array = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "-H", "-J", "arr", "-a", "1-3", "--wrap", "true"));
    // Unknown ids are reported before anything is asked; the answers are read a line each.
    LocalCluster.Result asked = cluster.withInput(bob, work, "n\nmaybe\nyes\n",
        "scancel", "-i", String.valueOf(a), "999999", array + "_2");
    assertThat(asked.err()).isEqualTo("scancel: error: Kill job error on job id 999999: Invalid job id specified\n");
    assertThat(asked.out()).isEqualTo("Cancel job_id=" + a + " name=first partition=debug [y/n]? "
        + ("Cancel job_id=" + array + "_[1-3] name=arr partition=debug [y/n]? ").repeat(2));
    assertThat(asked.exitCode()).isEqualTo(1);
    assertThat(cluster.state(a)).isEqualTo("PENDING");
    assertThat(cluster.state(array)).isIn("CANCELLED", "");

    // Filters: a node list that no pending job uses, another user's account; then the name.
    LocalCluster.Result none = cluster.as(bob, work, "scancel", "-v", "-w", "n[1-2]", "-A", "nope", "-n", "second");
    assertThat(none.err()).isEqualTo("scancel: error: No active jobs match ALL job filters, including: "
        + "account=nope job_name=second nodelist=n[1-2] \n");
    assertThat(cluster.state(b)).isEqualTo("PENDING");
    LocalCluster.Result byName = cluster.withInput(bob, work, "y\n", "scancel", "-i", "-u", TestUsers.BOB, "-n", "second");
    assertThat(byName.out()).isEqualTo("Cancel job_id=" + b + " name=second partition=debug [y/n]? ");
    assertThat(cluster.state(b)).isIn("CANCELLED", "");
    assertThat(cluster.as(bob, "scancel", String.valueOf(a)).exitCode()).isZero();

    int running = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(running, "RUNNING", 30)).isEqualTo("RUNNING");
    String node = cluster.as(bob, "squeue", "-h", "-j", String.valueOf(running), "-o", "%N").out().strip();
    assertThat(cluster.as(bob, "scancel", "-w", node, "-q", "other").exitCode()).isZero();
    assertThat(cluster.state(running)).isEqualTo("RUNNING");
    assertThat(cluster.as(bob, "scancel", "-w", "n[1-2]").exitCode()).isZero();
    assertThat(cluster.awaitState(running, "CANCELLED", 30)).isEqualTo("CANCELLED");
  }

  @Test
  void failingScriptEndsFailedWithItsExitCode() throws Exception {
    Path work = cluster.workDir(alice);
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--wrap", "exit 3"));
    assertThat(cluster.awaitState(id, "FAILED", 60)).isEqualTo("FAILED");
    assertThat(cluster.as(null, "scontrol", "show", "job", String.valueOf(id)).out())
        .contains("ExitCode=3:0");
  }

  @Test
  void timeLimitEndsTheJobTimeout() throws Exception {
    Path work = cluster.workDir(alice);
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--time=1", "--wrap", "sleep 600"));
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    String end = cluster.awaitState(id, "TIMEOUT", 120);
    String show = cluster.as(null, "scontrol", "show", "job", String.valueOf(id)).out();
    assertThat(end).as(show).isEqualTo("TIMEOUT");
    assertThat(show).contains("JobState=TIMEOUT Reason=TimeLimit").contains("ExitCode=0:15");
  }

  @Test
  void sinfoShowsTheNodesAndPingAnswers() throws Exception {
    assertThat(cluster.as(alice, "sinfo", "-h", "-o", "%P %D").out().trim()).isEqualTo("debug* 2");
    LocalCluster.Result ping = cluster.as(alice, "scontrol", "ping");
    assertThat(ping.exitCode()).isZero();
    assertThat(ping.out()).contains("is UP");
  }
}

package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs in cgroups on a real cluster (cgroup.conf ConstrainCores and ConstrainRAMSpace): a job
 * past its --mem is killed by the kernel and ends OUT_OF_MEMORY while its neighbour completes;
 * each job sees only its cores; sstat shows a running job's usage. Skipped where the node
 * daemons found no writable cgroups (they then run jobs unconfined, and say so).
 */
class ConfinementTest {
  private static final String CONF = """
      ClusterName=confined
      SlurmdTimeout=30
      KillWait=2
      DefMemPerCPU=100
      JobAcctGatherFrequency=task=1
      NodeName=c1 CPUs=2 RealMemory=1000
      PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;
  private static final String CGROUP_CONF = """
      CgroupPlugin=autodetect
      ConstrainCores=yes
      ConstrainRAMSpace=yes
      """;
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static TestUsers.User bob;
  private static Path work;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs to pin two jobs apart");
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    cluster = LocalCluster.upWithConfig(1, CONF, CGROUP_CONF);
    work = cluster.workDir(alice);
    String config = "";
    for (int i = 0; i < 40 && !config.contains("CgroupPluginInUse       = c1="); i++) {
      Thread.sleep(250);
      config = cluster.as(null, "scontrol", "show", "config").out();
    }
    assertThat(config).contains("Cgroup Support Configuration:", "ConstrainRAMSpace       = yes");
    assumeTrue(config.contains("c1=cgroup/v"), "the node daemon found no writable cgroups: " + config);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aJobPastItsMemoryEndsOutOfMemoryAndItsNeighbourCompletes() throws Exception {
    int hog = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--mem=50M", "-o", "hog-%j.out",
        "--wrap", "head -c 300000000 /dev/zero | tail > /dev/null; echo after"));
    int quiet = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--mem=50M", "-o", "quiet-%j.out",
        "--wrap", "sleep 3; head -c 10000000 /dev/zero | tail > /dev/null; echo done"));
    assertThat(cluster.awaitState(hog, "OUT_OF_MEMORY", 60)).isEqualTo("OUT_OF_MEMORY");
    assertThat(cluster.awaitState(quiet, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String shown = cluster.as(alice, "scontrol", "show", "job", String.valueOf(hog)).out();
    assertThat(shown).contains("JobState=OUT_OF_MEMORY Reason=OutOfMemory", "ExitCode=0:125");
    assertThat(cluster.as(alice, "squeue", "-h", "-t", "all", "-j", String.valueOf(hog), "-o", "%t").out())
        .isEqualTo("OOM\n");
    assertThat(Files.readString(work.resolve("quiet-" + quiet + ".out"))).isEqualTo("done\n");
    assertThat(Files.readString(work.resolve("hog-" + hog + ".out"))).endsWith("slurmstepd-c1: error: Detected 1"
        + " oom-kill event(s) in StepId=" + hog + ".batch cgroup. Some of your processes may have been killed by the"
        + " cgroup out-of-memory handler.\n");
  }

  @Test
  void eachJobSeesOnlyItsCores() throws Exception {
    String script = "grep Cpus_allowed_list /proc/self/status; sleep 4";
    int a = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-c", "1", "-o", "cpus-%j.out", "--wrap", script));
    int b = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-c", "1", "-o", "cpus-%j.out", "--wrap", script));
    assertThat(cluster.awaitState(a, "RUNNING", 30)).isEqualTo("RUNNING");
    String shownA = cluster.as(alice, "scontrol", "-d", "show", "job", String.valueOf(a)).out();
    assertThat(cluster.awaitState(a, "COMPLETED", 60)).isEqualTo("COMPLETED");
    assertThat(cluster.awaitState(b, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String first = Files.readString(work.resolve("cpus-" + a + ".out"));
    String second = Files.readString(work.resolve("cpus-" + b + ".out"));
    assertThat(first).matches("Cpus_allowed_list:\t\\d+\n");
    assertThat(second).matches("Cpus_allowed_list:\t\\d+\n");
    assertThat(first).isNotEqualTo(second);
    // the CPU the controller chose is the one the job was pinned to (node CPUs are host CPUs here)
    assertThat(shownA).contains("  Nodes=c1 CPU_IDs=" + first.substring(first.indexOf('\t') + 1).strip() + " Mem=");
  }

  @Test
  void sstatShowsARunningJobsUsageToItsOwnerOnly() throws Exception {
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--mem=200M", "-o", "/dev/null",
        "--wrap", "(head -c 40000000 /dev/zero; sleep 60) | tail > /dev/null"));
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    Pattern row = Pattern.compile(id + "\\.batch\\|1\\|(\\d+)K\\|c1\\|(\\d+)K\n");
    String out = "";
    long rss = 0;
    for (int i = 0; i < 40 && rss < 30_000; i++) {
      Thread.sleep(250);
      out = cluster.as(alice, "sstat", "-n", "-P", "-j", id + ".batch", "-o", "JobID,NTasks,MaxRSS,Nodelist,MaxVMSize")
          .out();
      Matcher m = row.matcher(out);
      rss = m.matches() ? Long.parseLong(m.group(1)) : 0;
    }
    assertThat(out).matches(row);
    assertThat(rss).isGreaterThanOrEqualTo(30_000);

    LocalCluster.Result full = cluster.as(alice, "sstat", "-j", id + ".batch");
    assertThat(full.err()).isEmpty();
    assertThat(full.out().split("\n")).hasSize(3);
    assertThat(full.out()).startsWith("JobID         MaxVMSize  MaxVMSizeNode");

    LocalCluster.Result noStep = cluster.as(alice, "sstat", "-n", "-j", String.valueOf(id));
    assertThat(noStep.out()).isEmpty();
    assertThat(noStep.err()).isEmpty();

    LocalCluster.Result other = cluster.as(bob, "sstat", "-n", "-j", id + ".batch");
    assertThat(other.out()).isEmpty();
    assertThat(other.err()).isEqualTo("sstat: error: slurm_job_step_stat: there was an error with the request to c1"
        + " rc = Invalid user id\nsstat: error: problem getting step_layout for StepId=" + id
        + ".batch: Invalid user id\n");
    cluster.as(alice, "scancel", String.valueOf(id));
  }

  @Test
  void aStepsTasksRunInTheStepsCgroupOnTheJobsCoresAndSstatSeesThem() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "salloc", "-n1", "sh", "-c",
        "srun sh -c 'grep Cpus_allowed_list /proc/self/status; grep -o \"job_.*/step_0\" /proc/self/cgroup"
            + " | sort -u; sleep 3' & sleep 1.5; sstat -n -P -j $SLURM_JOB_ID.0 -o JobID,NTasks,Nodelist; wait");
    assertThat(r.exitCode()).as(r.err()).isZero();
    int job = StepsSupport.grantedJob(r.err());
    assertThat(r.out()).matches("(?s)(.*\\n)?Cpus_allowed_list:\t\\d+\n.*");
    assertThat(r.out()).contains("job_" + job + "/step_0\n", job + ".0|1|c1\n");
  }
}

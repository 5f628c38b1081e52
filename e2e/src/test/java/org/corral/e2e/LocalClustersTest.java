package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Two local clusters on one host with the same cluster and node names never touch each other:
 * each keeps its own cgroup tree, so stopping one leaves the other's jobs confined. `corral down`
 * stops everything the cluster started, also the job launchers and jobs of a node daemon killed
 * with SIGKILL; `corral up` restarts a cluster made from a given slurm.conf as it is.
 */
class LocalClustersTest {
  private static final String CONF = """
      ClusterName=twin
      SlurmdTimeout=30
      KillWait=2
      DefMemPerCPU=100
      NodeName=n1 CPUs=2 RealMemory=1000
      PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;
  private static final String CGROUP_CONF = """
      CgroupPlugin=autodetect
      ConstrainRAMSpace=yes
      """;

  @Test
  void stoppingOneClusterLeavesTheOthersCgroupsAlone() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster first = LocalCluster.upWithConfig(1, CONF, CGROUP_CONF);
        LocalCluster second = LocalCluster.upWithConfig(1, CONF, CGROUP_CONF)) {
      assumeTrue(confined(first) && confined(second), "the node daemons found no writable cgroups");
      Path work1 = first.workDir(alice);
      Path work2 = second.workDir(alice);
      String cgroup1 = cgroupOfAJob(first, alice, work1);
      String cgroup2 = cgroupOfAJob(second, alice, work2);
      assertThat(cgroup1).contains("/twin-").contains("/slurm_n1/uid_" + alice.uid() + "/job_");
      assertThat(cgroup2).contains("/twin-").contains("/slurm_n1/uid_" + alice.uid() + "/job_");
      String clusterDir1 = cgroup1.substring(0, cgroup1.indexOf("/slurm_n1/"));
      String clusterDir2 = cgroup2.substring(0, cgroup2.indexOf("/slurm_n1/"));
      assertThat(clusterDir1).isNotEqualTo(clusterDir2);

      assertThat(second.corral("down", "--dir", second.dir.toString()).exitCode()).isZero();
      // The first cluster's next job is confined as before (it was refused when the second's
      // slurmd removed the directories both used).
      assertThat(cgroupOfAJob(first, alice, work1)).startsWith(clusterDir1 + "/slurm_n1/");
    }
  }

  @Test
  void downStopsTheLaunchersAndJobsOfAKilledNodeDaemon() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster cluster = LocalCluster.upWithConfig(1, CONF)) {
      Path work = cluster.workDir(alice);
      int job = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-o", "/dev/null", "--wrap",
          "echo $$ > shell.pid; exec sleep 300"));
      assertThat(cluster.awaitState(job, "RUNNING", 30)).isEqualTo("RUNNING");
      Path pidFile = work.resolve("shell.pid");
      for (int i = 0; i < 100 && !Files.exists(pidFile); i++) {
        Thread.sleep(100);
      }
      long jobPid = Long.parseLong(Files.readString(pidFile).trim());
      assertThat(launchers(cluster)).isNotEmpty();
      new ProcessBuilder("kill", "-9", String.valueOf(cluster.pid("slurmd-n1.pid"))).start().waitFor();

      LocalCluster.Result down = cluster.corral("down", "--dir", cluster.dir.toString());
      assertThat(down.out()).contains("stopped 1 job launcher and their jobs");
      assertThat(launchers(cluster)).isEmpty();
      assertThat(ProcessHandle.of(jobPid).filter(ProcessHandle::isAlive)).isEmpty();
      // What is left is no cluster's: the users' command servers, which idle out by themselves
      cluster.stopCommandServers();
      assertThat(cluster.processes()).isEmpty();
    }
  }

  @Test
  void upRestartsAClusterMadeFromAGivenSlurmConfAsItIs() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    try (LocalCluster cluster = LocalCluster.upWithConfig(1, CONF)) {
      Path conf = cluster.dir.resolve("slurm.conf");
      String written = Files.readString(conf);
      new ProcessBuilder("kill", "-9", String.valueOf(cluster.pid("slurmctld.pid"))).start().waitFor();

      LocalCluster.Result up = cluster.corral("up", "--dir", cluster.dir.toString(), "--port-base",
          String.valueOf(cluster.portBase));
      assertThat(up.exitCode()).as(up.toString()).isZero();
      assertThat(Files.readString(conf)).isEqualTo(written);
      assertThat(cluster.as(null, "sinfo", "-h", "-o", "%P %D %N").out()).isEqualTo("main* 1 n1\n");
    }
  }

  private static boolean confined(LocalCluster c) throws Exception {
    String config = "";
    for (int i = 0; i < 40 && !config.contains("CgroupPluginInUse       = n1="); i++) {
      Thread.sleep(250);
      config = c.as(null, "scontrol", "show", "config").out();
    }
    return config.contains("n1=cgroup/v");
  }

  /** The memory (v1) or unified (v2) cgroup a batch job of the user runs in, from /proc/self/cgroup. */
  private static String cgroupOfAJob(LocalCluster c, TestUsers.User user, Path work) throws Exception {
    int job = LocalCluster.jobId(c.as(user, work, "sbatch", "--mem=50M", "-o", "cg-%j.out", "--wrap",
        "grep -E ':memory:|^0::/.+' /proc/self/cgroup | head -1"));
    assertThat(c.awaitState(job, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String line = Files.readString(work.resolve("cg-" + job + ".out")).strip();
    return line.substring(line.indexOf(":", line.indexOf(":") + 1) + 1);
  }

  private static java.util.List<ProcessHandle> launchers(LocalCluster c) {
    return c.processes().stream()
        .filter(p -> p.info().commandLine().map(l -> l.contains("job-launcher.pl")).orElse(false)).toList();
  }
}

package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Runtime configuration changes on a real cluster while a job runs: {@code scontrol reconfigure}
 * applies a changed partition table and refuses a broken file (naming it) and a plain user;
 * {@code scontrol create/update/delete partition}; a configless {@code slurmd --conf-server}
 * node fetches its files into SlurmdSpoolDir/conf-cache, runs a job, and gets the new files on
 * the next reconfigure. The running job is untouched by all of it.
 */
class ReconfigureTest {
  @Test
  void reconfigurePartitionsAndAConfiglessNodeWhileAJobRuns() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster cluster = LocalCluster.upWithConfig(2, """
        ClusterName=recfg
        DefMemPerCPU=100
        SlurmctldParameters=enable_configless
        NodeName=r[1-2] CPUs=2 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """)) {
      Path work = cluster.workDir(alice);
      int job = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-w", "r1", "-o", "long-%j.out", "--wrap",
          "echo start; sleep 25; echo end"));
      assertThat(cluster.awaitState(job, "RUNNING", 30)).isEqualTo("RUNNING");

      // reconfigure: a changed partition and a new one
      Path conf = cluster.dir.resolve("slurm.conf");
      String original = Files.readString(conf);
      String changed = original.replace("MaxTime=INFINITE", "MaxTime=60") + "PartitionName=short Nodes=r2 MaxTime=5\n";
      Files.writeString(conf, changed);
      LocalCluster.Result r = cluster.as(null, "scontrol", "reconfigure");
      assertThat(r.exitCode()).as(r.toString()).isZero();
      assertThat(r.err()).isEmpty();
      assertThat(cluster.as(null, "sinfo", "-h", "-o", "%P %l").out()).isEqualTo("debug* 1:00:00\nshort 5:00\n");

      // only super users: a plain user is refused as Slurm refuses them
      LocalCluster.Result plain = cluster.as(alice, "scontrol", "reconfigure");
      assertThat(plain.exitCode()).isEqualTo(1);
      assertThat(plain.err()).isEqualTo("slurm_reconfigure error: Invalid user id\n");

      // a broken file (cgroup.conf beside slurm.conf) is refused with its name; nothing changes
      Path cgroup = cluster.dir.resolve("cgroup.conf");
      Path kept = cluster.root.resolve("cgroup.conf.kept");
      boolean hadCgroup = Files.exists(cgroup);
      if (hadCgroup) {
        Files.copy(cgroup, kept, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.writeString(conf, changed.replace("MaxTime=5", "MaxTime=7"));
      Files.writeString(cgroup, "ConstrainCores=perhaps\n");
      LocalCluster.Result broken = cluster.as(null, "scontrol", "reconfigure");
      assertThat(broken.exitCode()).isEqualTo(1);
      assertThat(broken.err()).startsWith("slurm_reconfigure error: " + cgroup + " line 1");
      assertThat(cluster.as(null, "sinfo", "-h", "-o", "%P %l").out()).isEqualTo("debug* 1:00:00\nshort 5:00\n");
      if (hadCgroup) {
        Files.move(kept, cgroup, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.delete(cgroup);
      }
      Files.writeString(conf, changed);
      assertThat(cluster.state(job)).isEqualTo("RUNNING");

      // create, update, delete partition
      assertThat(cluster.as(null, "scontrol", "create", "PartitionName=extra", "Nodes=r1", "MaxTime=10").exitCode())
          .isZero();
      assertThat(cluster.as(null, "scontrol", "show", "partition", "extra").out())
          .contains("MaxTime=00:10:00", "Nodes=r1", "MinNodes=1", "State=UP");
      assertThat(cluster.as(null, "scontrol", "update", "PartitionName=extra", "State=DOWN").exitCode()).isZero();
      assertThat(cluster.as(null, "sinfo", "-h", "-p", "extra", "-o", "%a").out()).isEqualTo("down\n");
      LocalCluster.Result inUse = cluster.as(null, "scontrol", "delete", "partition=debug");
      assertThat(inUse.exitCode()).isEqualTo(1);
      assertThat(inUse.err()).isEqualTo("delete_partition partition=debug: Partition is in use\n");
      assertThat(cluster.as(alice, "scontrol", "delete", "partition=extra").err())
          .isEqualTo("delete_partition partition=extra: Invalid user id\n");
      assertThat(cluster.as(null, "scontrol", "delete", "partition=extra").exitCode()).isZero();
      assertThat(cluster.as(null, "sinfo", "-h", "-o", "%P").out()).isEqualTo("debug*\nshort\n");

      // configless: r2's slurmd replaced by one that has only the key and fetches the rest
      configlessNode(cluster, alice, work, conf, changed);

      assertThat(cluster.awaitState(job, "COMPLETED", 60)).isEqualTo("COMPLETED");
      assertThat(Files.readString(work.resolve("long-" + job + ".out"))).isEqualTo("start\nend\n");
    }
  }

  private static void configlessNode(LocalCluster cluster, TestUsers.User alice, Path work, Path conf, String text)
      throws Exception {
    long old = cluster.pid("slurmd-r2.pid");
    new ProcessBuilder("kill", String.valueOf(old)).inheritIO().start().waitFor();
    for (int i = 0; i < 100 && Files.exists(Path.of("/proc/" + old)); i++) {
      Thread.sleep(100);
    }
    Path keyOnly = cluster.root.resolve("node-etc");
    Files.createDirectories(keyOnly);
    Files.copy(cluster.dir.resolve("slurm.key"), keyOnly.resolve("slurm.key"));
    Matcher port = Pattern.compile("(?m)^SlurmctldPort=(\\d+)").matcher(text);
    assertThat(port.find()).isTrue();
    Path log = cluster.root.resolve("configless-slurmd.log");
    ProcessBuilder pb = new ProcessBuilder(cluster.home.resolve("bin/slurmd").toString(), "-N", "r2",
        "--conf-server", "127.0.0.1:" + port.group(1));
    pb.environment().put("SLURM_CONF", keyOnly.resolve("slurm.conf").toString());
    Process slurmd = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      Path cached = cluster.dir.resolve("spool/r2/conf-cache/slurm.conf");
      for (int i = 0; i < 300 && !Files.exists(cached); i++) {
        Thread.sleep(100);
      }
      assertThat(Files.readString(cached)).as(Files.readString(log)).isEqualTo(text);
      int onR2 = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-p", "short", "-o", "r2-%j.out", "--wrap",
          "echo on $(hostname -s) $SLURMD_NODENAME"));
      assertThat(cluster.awaitState(onR2, "COMPLETED", 60)).as(Files.readString(log)).isEqualTo("COMPLETED");
      assertThat(Files.readString(work.resolve("r2-" + onR2 + ".out"))).endsWith(" r2\n");

      // the next reconfigure brings the node the new files
      String next = text + "# reconfigured\n";
      Files.writeString(conf, next);
      assertThat(cluster.as(null, "scontrol", "reconfigure").exitCode()).isZero();
      for (int i = 0; i < 100 && !Files.readString(cached).equals(next); i++) {
        Thread.sleep(100);
      }
      assertThat(Files.readString(cached)).isEqualTo(next);
    } finally {
      slurmd.destroy();
      if (!slurmd.waitFor(20, TimeUnit.SECONDS)) {
        slurmd.destroyForcibly();
      }
    }
  }
}

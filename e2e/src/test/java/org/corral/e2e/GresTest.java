package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GPUs as generic resources on a real cluster, without a GPU: gres.conf's File= names character
 * devices made for the test (copies of /dev/full and /dev/random, which open without a driver of
 * their own), node g2 is configured with two GPUs but its gres.conf has one. Two one-GPU jobs on
 * the two-GPU node see different CUDA_VISIBLE_DEVICES and a third waits for Resources; with
 * ConstrainDevices=yes (cgroup v1) a job cannot open the GPU it was not given.
 */
class GresTest {
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static Path work;
  private static Path devices;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and make device files");
    alice = TestUsers.ensure(TestUsers.ALICE);
    devices = FakeDevices.directory("corral-gres-dev-");
    FakeDevices.mknod(devices.resolve("gpu0"), FakeDevices.FULL);
    FakeDevices.mknod(devices.resolve("gpu1"), FakeDevices.RANDOM);
    FakeDevices.mknod(devices.resolve("gpu2"), FakeDevices.FULL);
    String conf = """
        ClusterName=gres
        SlurmdTimeout=30
        KillWait=2
        DefMemPerCPU=100
        GresTypes=gpu
        NodeName=g1 CPUs=4 RealMemory=1000 Gres=gpu:2
        NodeName=g2 CPUs=4 RealMemory=1000 Gres=gpu:2
        PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """;
    String gres = """
        AutoDetect=off
        NodeName=g1 Name=gpu File=%1$s/gpu[0-1]
        NodeName=g2 Name=gpu File=%1$s/gpu2
        """.formatted(devices);
    cluster = LocalCluster.upWithConfig(2, conf, "CgroupPlugin=autodetect\nConstrainDevices=yes\n", gres);
    work = cluster.workDir(alice);
    String reasons = "";
    for (int i = 0; i < 60 && !reasons.contains("g2"); i++) {
      Thread.sleep(250);
      reasons = cluster.as(null, "sinfo", "-h", "-R", "-o", "%n|%E").out();
    }
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    FakeDevices.remove(devices);
  }

  @Test
  void aNodeWithFewerGpusThanConfiguredIsDrainedWithSlurmsReason() throws Exception {
    assertThat(cluster.as(null, "sinfo", "-h", "-R", "-o", "%n|%E").out())
        .isEqualTo("g2|gres/gpu count reported lower than configured (1 < 2)\n");
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %G").out()).isEqualTo("g1 gpu:2\ng2 gpu:2\n");
    assertThat(cluster.as(null, "scontrol", "show", "node", "g1").out()).contains("\n   Gres=gpu:2\n");
  }

  @Test
  void twoOneGpuJobsSeeDifferentGpusAndAThirdWaitsForResources() throws Exception {
    String script = "echo CUDA=$CUDA_VISIBLE_DEVICES JOB_GPUS=$SLURM_JOB_GPUS ON_NODE=$SLURM_GPUS_ON_NODE; sleep 4";
    int a = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--gres=gpu:1", "-o", "two-%j.out", "--wrap", script));
    int b = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--gres=gpu:1", "-o", "two-%j.out", "--wrap", script));
    int c = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--gres=gpu:1", "-o", "two-%j.out", "--wrap", script));
    assertThat(cluster.awaitState(a, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.awaitState(b, "RUNNING", 30)).isEqualTo("RUNNING");
    String third = "";
    for (int i = 0; i < 20 && !third.equals("PENDING Resources gres:gpu:1\n"); i++) {
      Thread.sleep(250);
      third = cluster.as(alice, "squeue", "-h", "-j", String.valueOf(c), "-o", "%T %r %b").out();
    }
    assertThat(third).isEqualTo("PENDING Resources gres:gpu:1\n");
    String shown = cluster.as(alice, "scontrol", "-d", "show", "job", String.valueOf(a)).out();
    assertThat(shown).contains("\n   JOB_GRES=gpu:1\n", " GRES=gpu:1(IDX:", "\n   TresPerNode=gres:gpu:1\n");
    assertThat(cluster.as(null, "scontrol", "-d", "show", "node", "g1").out())
        .contains("\n   GresUsed=gpu:(null):2(IDX:0-1)\n");
    for (int id : new int[] {a, b, c}) {
      assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    }
    String outA = Files.readString(work.resolve("two-" + a + ".out"));
    String outB = Files.readString(work.resolve("two-" + b + ".out"));
    assertThat(Set.of(outA, outB)).containsExactlyInAnyOrder("CUDA=0 JOB_GPUS=0 ON_NODE=1\n",
        "CUDA=1 JOB_GPUS=1 ON_NODE=1\n");
    String tres = "";
    for (int i = 0; i < 80 && !tres.contains("gres"); i++) { // the record reaches slurmdbd shortly after
      Thread.sleep(250);
      tres = cluster.as(alice, "sacct", "-j", String.valueOf(a), "-X", "-n", "-P", "-o", "AllocTRES,ReqTRES").out();
    }
    assertThat(tres).isEqualTo("billing=1,cpu=1,gres/gpu=1,mem=100M,node=1|billing=1,cpu=1,gres/gpu=1,mem=100M,node=1\n");
  }

  @Test
  void aJobCannotOpenTheGpuItWasNotGiven() throws Exception {
    String config = cluster.as(null, "scontrol", "show", "config").out();
    assumeTrue(config.contains("=cgroup/v1") && !config.contains("=none") && !config.contains("cgroup/v2"),
        "devices are constrained with cgroup v1 only: " + config);
    String script = "for d in " + devices + "/gpu0 " + devices + "/gpu1; do"
        + " if (exec 3<$d) 2>/dev/null; then echo \"$d ok\"; else echo \"$d refused:\" $( (exec 3<$d) 2>&1 ); fi; done;"
        + " echo CUDA=$CUDA_VISIBLE_DEVICES";
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-w", "g1", "--gpus=1", "-o", "dev-%j.out",
        "--wrap", script));
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String out = Files.readString(work.resolve("dev-" + id + ".out"));
    String given = out.contains("CUDA=0") ? "gpu0" : "gpu1";
    String other = given.equals("gpu0") ? "gpu1" : "gpu0";
    assertThat(out).contains(devices + "/" + given + " ok\n", devices + "/" + other + " refused:");
    assertThat(out).containsPattern("refused: .*Operation not permitted\n"); // the device cgroup, not file modes
  }

  @Test
  void aStepGetsTheGpusItAsksForOfItsJobs() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "salloc", "-w", "g1", "--gres=gpu:2", "srun", "--gres=gpu:1",
        "-n1", "sh", "-c", "echo STEP=$SLURM_STEP_GPUS CUDA=$CUDA_VISIBLE_DEVICES ON_NODE=$SLURM_GPUS_ON_NODE");
    assertThat(r.out()).isEqualTo("STEP=0 CUDA=0 ON_NODE=1\n");
  }

  @Test
  void aGresNotInGresTypesIsRefusedAndTooManyGpusToo() throws Exception {
    LocalCluster.Result bad = cluster.as(alice, work, "sbatch", "--gres=foo:1", "--wrap", "true");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("sbatch: error: Invalid generic resource (gres) specification\n");
    LocalCluster.Result many = cluster.as(alice, work, "sbatch", "--gres=gpu:3", "--wrap", "true");
    assertThat(many.err())
        .isEqualTo("sbatch: error: Batch job submission failed: Requested node configuration is not available\n");
  }
}

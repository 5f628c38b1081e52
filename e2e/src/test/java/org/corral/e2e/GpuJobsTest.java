package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GPU jobs on a real cluster without a GPU (device files made for the test, as {@link GresTest}
 * makes them): one node of four GPUs shared out as 400 mps units, in a partition billed
 * CPU=1.0,Mem=0.25G,GRES/gpu=2.0 (slurm.conf's example). What jobs see of their GPUs (mps
 * percentage, each srun task's own GPU) and what they are billed, through the commands.
 */
class GpuJobsTest {
  private static final String WEIGHTS = "CPU=1.0,Mem=0.25G,GRES/gpu=2.0";
  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static Path work;
  private static Path devices;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and make device files");
    alice = TestUsers.ensure(TestUsers.ALICE);
    devices = FakeDevices.directory("corral-gpu-dev-");
    for (int i = 0; i < 4; i++) {
      FakeDevices.mknod(devices.resolve("gpu" + i), FakeDevices.FULL);
    }
    String conf = """
        ClusterName=gpus
        SlurmdTimeout=30
        KillWait=2
        DefMemPerCPU=100
        GresTypes=gpu,mps
        NodeName=g1 CPUs=8 RealMemory=16000 Gres=gpu:4,mps:400
        PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP TRESBillingWeights="%s"
        """.formatted(WEIGHTS);
    String gres = """
        AutoDetect=off
        NodeName=g1 Name=gpu File=%1$s/gpu[0-3]
        NodeName=g1 Name=mps Count=400 File=%1$s/gpu[0-3]
        """.formatted(devices);
    cluster = LocalCluster.upWithConfig(1, conf, "CgroupPlugin=autodetect\n", gres);
    work = cluster.workDir(alice);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    FakeDevices.remove(devices);
  }

  @Test
  void anMpsJobSeesItsGpuAndItsShareOfIt() throws Exception {
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "--gres=mps:50", "-o", "mps-%j.out", "--wrap",
        "echo CUDA=$CUDA_VISIBLE_DEVICES PCT=$CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"));
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    // 50 of the GPU's 100 units; the first GPU while nothing else runs
    assertThat(Files.readString(work.resolve("mps-" + id + ".out"))).isEqualTo("CUDA=0 PCT=50\n");
  }

  @Test
  void srunTasksGetTheGpusMapGpuNamesAndOneEachWithGpusPerTask() throws Exception {
    String print = "echo $SLURM_PROCID:$CUDA_VISIBLE_DEVICES";
    LocalCluster.Result mapped = cluster.as(alice, work, "salloc", "-n4", "--gres=gpu:4", "srun", "-n4",
        "--gpu-bind=map_gpu:3,2,1,0", "sh", "-c", print);
    assertThat(sortedLines(mapped.out())).as(mapped.err()).isEqualTo("0:3\n1:2\n2:1\n3:0\n");
    LocalCluster.Result perTask = cluster.as(alice, work, "salloc", "-n2", "--gres=gpu:4", "srun", "-n2",
        "--gpus-per-task=2", "sh", "-c", print);
    assertThat(sortedLines(perTask.out())).as(perTask.err()).isEqualTo("0:0,1\n1:2,3\n");
  }

  @Test
  void srunInsideABatchJobGivesEachTaskTheGpusTheJobAskedPerTask() throws Exception {
    // What the same script printed on Slurm 22.05 (sbatch -n4 --gpus-per-task=1, four GPUs)
    String script = "#!/bin/sh\n"
        + "echo GPUS_PER_TASK=$SLURM_GPUS_PER_TASK\n"
        + "srun sh -c 'echo $SLURM_PROCID:$CUDA_VISIBLE_DEVICES:$SLURM_STEP_GPUS:$SLURM_GPUS_ON_NODE' | sort\n"
        + "srun -n2 sh -c 'echo $SLURM_PROCID:$CUDA_VISIBLE_DEVICES' | sort\n";
    Path file = work.resolve("per-task.sh");
    Files.writeString(file, script);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-n4", "--gpus-per-task=1", "-o", "pt-%j.out",
        file.toString()));
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    assertThat(Files.readString(work.resolve("pt-" + id + ".out")))
        .isEqualTo("GPUS_PER_TASK=1\n0:0:0:4\n1:1:1:4\n2:2:2:4\n3:3:3:4\n0:0\n1:1\n");
  }

  @Test
  void theJobIsBilledItsWeightedTresEverywhere() throws Exception {
    // 2 CPUs x 1.0 + 4 GB x 0.25 + 1 GPU x 2.0 = 5
    int id = LocalCluster.jobId(cluster.as(alice, work, "sbatch", "-n2", "--mem=4G", "--gres=gpu:1", "-o",
        "/dev/null", "--wrap", "sleep 3"));
    assertThat(cluster.awaitState(id, "RUNNING", 30)).isEqualTo("RUNNING");
    assertThat(cluster.as(alice, "scontrol", "show", "job", String.valueOf(id)).out())
        .contains("\n   TRES=cpu=2,mem=4G,node=1,billing=5\n");
    assertThat(cluster.as(alice, "squeue", "--json").out()).contains("\"tres_alloc_str\": \"cpu=2,mem=4096M,node=1,billing=5\"");
    // 8 CPUs + 16000 MB x 0.25/1024 = 11.9: stored whole
    assertThat(cluster.as(alice, "scontrol", "show", "partition", "main").out())
        .contains("\n   TRES=cpu=8,mem=16000M,node=1,billing=11\n   TRESBillingWeights=" + WEIGHTS + "\n");
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    String tres = "";
    for (int i = 0; i < 80 && !tres.contains("gres"); i++) { // the record reaches slurmdbd shortly after
      Thread.sleep(250);
      tres = cluster.as(alice, "sacct", "-j", String.valueOf(id), "-X", "-n", "-P", "-o", "AllocTRES,ReqTRES").out();
    }
    assertThat(tres).isEqualTo("billing=5,cpu=2,gres/gpu=1,mem=4G,node=1|billing=5,cpu=2,gres/gpu=1,mem=4G,node=1\n");
  }

  private static String sortedLines(String out) {
    String[] lines = out.split("\n");
    Arrays.sort(lines);
    return String.join("\n", lines) + "\n";
  }
}

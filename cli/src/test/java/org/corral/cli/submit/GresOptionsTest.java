package org.corral.cli.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.StepSpec;
import org.junit.jupiter.api.Test;

/** --gpu-bind, --gres-flags and --tres-per-task as sbatch, srun and salloc take them. */
class GresOptionsTest {
  private static GresOptions apply(String program, String... keyValues) throws CommandFailure {
    GresOptions o = new GresOptions(program);
    for (int i = 0; i < keyValues.length; i += 2) {
      assertThat(o.apply(keyValues[i], keyValues[i + 1])).isTrue();
    }
    return o;
  }

  @Test
  void gpuBindIsCheckedByItsFirstWordAsTheReferenceDoes() throws Exception {
    // each accepted by Slurm 22.05's srun (exit 0 on the reference, without GPUs)
    for (String ok : new String[] {"closest", "none", "map_gpu:0,1", "mask_gpu:0x1", "single:2",
        "verbose,closest", "closest,verbose", "per_task:1", "none,closest"}) {
      assertThat(apply("srun", "gpu-bind", ok).applyTo(StepSpec.newBuilder()).getGpuBind()).isEqualTo(ok);
    }
    for (String bad : new String[] {"bogus", "verbose", "x"}) {
      assertThatThrownBy(() -> apply("srun", "gpu-bind", bad)).isInstanceOfSatisfying(CommandFailure.class, f -> {
        assertThat(f.exitStatus()).isEqualTo(255);
        assertThat(f.lines()).containsExactly("srun: error: Invalid --gpu-bind argument: gpu:" + bad);
      });
    }
  }

  @Test
  void gresFlagsTakeSlurmsWords() throws Exception {
    assertThat(apply("sbatch", "gres-flags", "enforce-binding").applyTo(JobSpec.newBuilder()).getGresFlags())
        .isEqualTo("enforce-binding");
    assertThat(apply("sbatch", "gres-flags", "disable-binding").applyTo(JobSpec.newBuilder()).getGresFlags())
        .isEqualTo("disable-binding");
    assertThatThrownBy(() -> apply("sbatch", "gres-flags", "bogus")).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("sbatch: error: Invalid --gres-flags specification"));
  }

  @Test
  void tresPerTaskGivesGenericResourcesPerTaskLikeGpusPerTask() throws Exception {
    assertThat(apply("sbatch", "tres-per-task", "gres/gpu:1").tresPerTask()).isEqualTo("gres:gpu:1");
    assertThat(apply("sbatch", "tres-per-task", "gres/gpu:a100=2,gres/nic:1").tresPerTask())
        .isEqualTo("gres:gpu:a100:2,gres:nic:1");
    assertThat(apply("srun", "tres-per-task", "gres/gpu:1").applyTo(StepSpec.newBuilder()).getTresPerTask())
        .isEqualTo("gres:gpu:1");
    assertThatThrownBy(() -> apply("sbatch", "tres-per-task", "cpu=2")).isInstanceOfSatisfying(
        CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("sbatch: error: Invalid --tres-per-task specification"));
  }

  @Test
  void theGpuOptionsArePassedOnInTheVariablesSbatchSetsAndSrunReads() throws Exception {
    // sbatch -n4 --gpus-per-task=1 --cpus-per-gpu=1 --mem-per-gpu=100 --gpu-bind=closest on 22.05
    assertThat(apply("sbatch", "gpus-per-task", "1", "cpus-per-gpu", "1", "mem-per-gpu", "100", "gpu-bind", "closest")
        .variables()).containsExactly(Map.entry("SLURM_CPUS_PER_GPU", "1"),
            Map.entry("SLURM_GPUS_PER_TASK", "1"), Map.entry("SLURM_GPU_BIND", "closest"),
            Map.entry("SLURM_MEM_PER_GPU", "100"));
    assertThat(apply("salloc", "G", "3", "gpus-per-node", "a100:2", "mem-per-gpu", "1G").variables())
        .containsExactly(Map.entry("SLURM_GPUS", "3"), Map.entry("SLURM_GPUS_PER_NODE", "a100:2"),
            Map.entry("SLURM_MEM_PER_GPU", "1024"));
    assertThat(apply("sbatch", "gres", "gpu:2").variables()).isEmpty();
  }
}

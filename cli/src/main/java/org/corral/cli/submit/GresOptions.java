package org.corral.cli.submit;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.StepSpec;

/**
 * The generic resource options sbatch, srun and salloc share (--gres, --gpus/-G,
 * --gpus-per-node, --gpus-per-task, --cpus-per-gpu, --mem-per-gpu), kept as Slurm keeps them:
 * TRES strings per node, per job and per task ({@code gres:gpu:a100:2}).
 */
public final class GresOptions {
  private final String program;
  private final List<GresCount> gres = new ArrayList<>();
  private List<GresCount> gpus = List.of();
  private List<GresCount> gpusPerNode = List.of();
  private List<GresCount> gpusPerTask = List.of();
  private Long cpusPerGpu;
  private Long memPerGpuMb;

  public GresOptions(String program) {
    this.program = program;
  }

  /** Applies one option by its key; false when it is not one of these. */
  public boolean apply(String key, String value) throws CommandFailure {
    switch (key) {
      case "gres" -> {
        gres.clear();
        if (!value.equalsIgnoreCase("none")) {
          gres.addAll(parse(value, "--gres"));
        }
      }
      case "G" -> gpus = gpus(value, "--gpus");
      case "gpus-per-node" -> gpusPerNode = gpus(value, "--gpus-per-node");
      case "gpus-per-task" -> gpusPerTask = gpus(value, "--gpus-per-task");
      case "cpus-per-gpu" -> cpusPerGpu = (long) OptionValues.positive(program, value, "--cpus-per-gpu");
      case "mem-per-gpu" -> memPerGpuMb = OptionValues.memoryMb(program, value, "--mem-per-gpu");
      default -> {
        return false;
      }
    }
    return true;
  }

  /** Per node: --gres, then --gpus-per-node ("gres:gpu:2,gres:nic:1"). */
  public String tresPerNode() {
    List<GresCount> all = new ArrayList<>(gres);
    all.addAll(gpusPerNode);
    return GresCount.toTres(all);
  }

  public String tresPerJob() {
    return GresCount.toTres(gpus);
  }

  public String tresPerTask() {
    return GresCount.toTres(gpusPerTask);
  }

  public String cpusPerTres() {
    return cpusPerGpu == null ? "" : "gres:gpu:" + cpusPerGpu;
  }

  public String memPerTres() {
    return memPerGpuMb == null ? "" : "gres:gpu:" + memPerGpuMb;
  }

  public JobSpec.Builder applyTo(JobSpec.Builder b) {
    return b.setTresPerNode(tresPerNode()).setTresPerJob(tresPerJob()).setTresPerTask(tresPerTask())
        .setCpusPerTres(cpusPerTres()).setMemPerTres(memPerTres());
  }

  /** A step takes per node what --gres/--gpus-per-node say, --gpus spread over its nodes, --gpus-per-task per task. */
  public StepSpec.Builder applyTo(StepSpec.Builder b) {
    return b.setTresPerNode(tresPerNode()).setTresPerJob(tresPerJob()).setTresPerTask(tresPerTask());
  }

  private List<GresCount> parse(String value, String option) throws CommandFailure {
    try {
      return GresCount.parseList(value);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.error(program, "Invalid " + option + " specification");
    }
  }

  private List<GresCount> gpus(String value, String option) throws CommandFailure {
    try {
      return GresCount.parseGpus(value);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.error(program, "Invalid " + option + " specification");
    }
  }
}

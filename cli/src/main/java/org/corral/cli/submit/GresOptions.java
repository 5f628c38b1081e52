package org.corral.cli.submit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.StepSpec;

/**
 * The generic resource options sbatch, srun and salloc share (--gres, --gpus/-G,
 * --gpus-per-node, --gpus-per-task, --tres-per-task, --cpus-per-gpu, --mem-per-gpu,
 * --gres-flags, --gpu-bind), kept as Slurm keeps them: TRES strings per node, per job and per
 * task ({@code gres:gpu:a100:2}).
 */
public final class GresOptions {
  /** The output variable of each GPU option (sbatch(1), salloc(1)); srun reads them back as input. */
  private static final Map<String, String> VARIABLES = Map.of(
      "G", "SLURM_GPUS", "gpus-per-node", "SLURM_GPUS_PER_NODE", "gpus-per-task", "SLURM_GPUS_PER_TASK",
      "cpus-per-gpu", "SLURM_CPUS_PER_GPU", "mem-per-gpu", "SLURM_MEM_PER_GPU", "gpu-bind", "SLURM_GPU_BIND");

  private final String program;
  private final List<GresCount> gres = new ArrayList<>();
  private List<GresCount> gpus = List.of();
  private List<GresCount> gpusPerNode = List.of();
  private List<GresCount> gpusPerTask = List.of();
  private List<GresCount> tresPerTask = List.of();
  private String gresFlags = "";
  private String gpuBind = "";
  private Long cpusPerGpu;
  private Long memPerGpuMb;
  /** The GPU options as given, by the variable that passes each on (see {@link #variables()}). */
  private final Map<String, String> given = new TreeMap<>();

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
      case "tres-per-task" -> tresPerTask = tresPerTask(value);
      case "gres-flags" -> gresFlags = gresFlags(value);
      case "gpu-bind" -> gpuBind = gpuBind(value);
      case "cpus-per-gpu" -> cpusPerGpu = (long) OptionValues.positive(program, value, "--cpus-per-gpu");
      case "mem-per-gpu" -> memPerGpuMb = OptionValues.memoryMb(program, value, "--mem-per-gpu");
      default -> {
        return false;
      }
    }
    String variable = VARIABLES.get(key);
    if (variable != null) {
      given.put(variable, key.equals("mem-per-gpu") ? Long.toString(memPerGpuMb) : value);
    }
    return true;
  }

  /**
   * What a batch job's or an allocation's environment says of the GPU options, each only when
   * given (SLURM_GPUS_PER_TASK=1, SLURM_GPU_BIND=closest, SLURM_MEM_PER_GPU in MB), so that
   * srun inside lays its tasks on GPUs as the job asked.
   */
  public Map<String, String> variables() {
    return Collections.unmodifiableMap(given);
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
    List<GresCount> all = new ArrayList<>(gpusPerTask);
    all.addAll(tresPerTask);
    return GresCount.toTres(all);
  }

  public String cpusPerTres() {
    return cpusPerGpu == null ? "" : "gres:gpu:" + cpusPerGpu;
  }

  public String memPerTres() {
    return memPerGpuMb == null ? "" : "gres:gpu:" + memPerGpuMb;
  }

  public JobSpec.Builder applyTo(JobSpec.Builder b) {
    return b.setTresPerNode(tresPerNode()).setTresPerJob(tresPerJob()).setTresPerTask(tresPerTask())
        .setCpusPerTres(cpusPerTres()).setMemPerTres(memPerTres()).setGresFlags(gresFlags);
  }

  /** A step takes per node what --gres/--gpus-per-node say, --gpus spread over its nodes, --gpus-per-task per task. */
  public StepSpec.Builder applyTo(StepSpec.Builder b) {
    return b.setTresPerNode(tresPerNode()).setTresPerJob(tresPerJob()).setTresPerTask(tresPerTask())
        .setGpuBind(gpuBind);
  }

  /**
   * --tres-per-task (Slurm 23.11 and later; 22.05 has no such option): "gres/gpu:1",
   * "gres/gpu:a100=2", entries separated by commas; the generic resources per task, as
   * --gpus-per-task gives them.
   */
  private List<GresCount> tresPerTask(String value) throws CommandFailure {
    List<GresCount> out = new ArrayList<>();
    for (String entry : value.split(",", -1)) {
      if (!entry.startsWith("gres/")) {
        throw CommandFailure.invalid(program, "Invalid --tres-per-task specification");
      }
      int eq = entry.lastIndexOf('=');
      String gres = eq < 0 ? entry.substring(5) : entry.substring(5, eq) + ":" + entry.substring(eq + 1);
      out.addAll(parse(gres, "--tres-per-task"));
    }
    return out;
  }

  /** --gres-flags: Slurm 22.05's words; anything else is refused as Slurm refuses it. */
  private String gresFlags(String value) throws CommandFailure {
    if (!value.equalsIgnoreCase("enforce-binding") && !value.equalsIgnoreCase("disable-binding")) {
      throw CommandFailure.invalid(program, "Invalid --gres-flags specification");
    }
    return value.toLowerCase(java.util.Locale.ROOT);
  }

  /** --gpu-bind: [verbose,]closest|none|map_gpu:|mask_gpu:|single:|per_task:..., checked by its first word as Slurm does. */
  private String gpuBind(String value) throws CommandFailure {
    String type = value.startsWith("verbose,") ? value.substring("verbose,".length()) : value;
    for (String known : List.of("closest", "none", "map_gpu:", "mask_gpu:", "single:", "per_task:")) {
      if (type.startsWith(known)) {
        return value;
      }
    }
    throw CommandFailure.invalid(program, "Invalid --gpu-bind argument: gpu:" + value);
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

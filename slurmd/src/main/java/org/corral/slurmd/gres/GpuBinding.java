package org.corral.slurmd.gres;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.gres.GresCount;

/**
 * srun's --gpu-bind: the GPUs (node indices) one task of a step sees, among the step's GPUs on
 * the node. {@code map_gpu:0,1*2} gives task i the (i mod n)-th listed GPU, {@code mask_gpu:0x3}
 * the GPUs of the (i mod n)-th mask, {@code single:N} one GPU for each N tasks, {@code
 * per_task:N} N GPUs of its own (what --gpus-per-task implies, as in Slurm), {@code closest} the
 * step's GPUs near the task's CPUs (gres.conf Cores=; all of them where none is near); {@code
 * none} leaves every task all of the step's GPUs.
 */
public final class GpuBinding {
  private GpuBinding() {}

  /** The binding a step asks for: --gpu-bind as given, else per_task:N for --gpus-per-task=N. */
  public static String of(String gpuBind, String tresPerTask) {
    if (!gpuBind.isEmpty()) {
      return gpuBind;
    }
    try {
      long n = GresCount.parseList(tresPerTask).stream().filter(c -> c.name().equals("gpu"))
          .mapToLong(GresCount::count).sum();
      return n > 0 ? "per_task:" + n : "";
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /**
   * The GPUs task {@code localId} sees; all of {@code stepGpus} where the binding says nothing
   * narrower.
   *
   * @param near the node's GPUs near the task's CPUs (for closest)
   */
  public static List<Integer> forTask(String bind, List<Integer> stepGpus, int localId, List<Integer> near) {
    String type = bind.replace("verbose,", "").replace(",verbose", "");
    if (stepGpus.isEmpty()) {
      return stepGpus;
    }
    if (type.equals("closest")) {
      List<Integer> mine = stepGpus.stream().filter(near::contains).toList();
      return mine.isEmpty() ? stepGpus : mine;
    }
    try {
      if (type.startsWith("map_gpu:")) {
        List<String> list = expand(type.substring("map_gpu:".length()));
        return list.isEmpty() ? stepGpus : List.of(Integer.parseInt(list.get(localId % list.size()).trim()));
      }
      if (type.startsWith("mask_gpu:")) {
        List<String> list = expand(type.substring("mask_gpu:".length()));
        return list.isEmpty() ? stepGpus : bits(list.get(localId % list.size()).trim());
      }
      if (type.startsWith("single:")) {
        int per = Math.max(1, Integer.parseInt(type.substring("single:".length()).trim()));
        return List.of(stepGpus.get((localId / per) % stepGpus.size()));
      }
      if (type.startsWith("per_task:")) {
        int n = Math.max(1, Integer.parseInt(type.substring("per_task:".length()).trim()));
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < n && k < stepGpus.size(); k++) {
          out.add(stepGpus.get((localId * n + k) % stepGpus.size()));
        }
        return out;
      }
    } catch (NumberFormatException e) {
      return stepGpus; // a value srun let through but that names nothing: no narrower binding
    }
    return stepGpus;
  }

  /** "0,1*2" as 0,1,1. */
  private static List<String> expand(String list) {
    List<String> out = new ArrayList<>();
    for (String item : list.split(",")) {
      int star = item.indexOf('*');
      int times = star < 0 ? 1 : Math.min(1024, Integer.parseInt(item.substring(star + 1).trim()));
      for (int k = 0; k < times && !item.isBlank(); k++) {
        out.add(star < 0 ? item : item.substring(0, star));
      }
    }
    return out;
  }

  /** A hexadecimal (0x...) or decimal mask as the indices of its set bits. */
  private static List<Integer> bits(String mask) {
    long m = mask.startsWith("0x") || mask.startsWith("0X") ? Long.parseUnsignedLong(mask.substring(2), 16)
        : Long.parseLong(mask);
    List<Integer> out = new ArrayList<>();
    for (int b = 0; b < 64; b++) {
      if ((m & (1L << b)) != 0) {
        out.add(b);
      }
    }
    return out;
  }
}

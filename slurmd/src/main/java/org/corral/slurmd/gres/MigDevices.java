package org.corral.slurmd.gres;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MIG instances of a node's GPUs, from three of NVIDIA's documented outputs: {@code
 * nvidia-smi -L} (each instance's profile, e.g. {@code 1g.10gb}, and UUID, under its GPU), the
 * "MIG devices" table of plain {@code nvidia-smi} (the GPU instance and compute instance ids of
 * each MIG device) and {@code /proc/driver/nvidia-caps/mig-minors} (the minor numbers of the
 * capability devices {@code /dev/nvidia-caps/nvidia-capN} that grant access to them). An instance's
 * device files are its GPU's {@code /dev/nvidiaN} and its two capability devices, as Slurm lists
 * them.
 */
record MigDevices(Map<String, List<Instance>> byGpu) {
  static final MigDevices NONE = new MigDevices(Map.of());

  private static final Pattern GPU_LINE = Pattern.compile("^GPU (\\d+): .*");
  private static final Pattern MIG_LINE = Pattern.compile(
      "^\\s+MIG (\\S+)\\s+Device\\s+(\\d+): \\(UUID: (MIG-[^)\\s]+)\\)");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\|\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\|.*");

  /** One MIG instance: its profile, UUID, and capability device minors (-1 when unknown). */
  record Instance(String profile, String uuid, int giMinor, int ciMinor) {
    /** /dev/nvidiaGPU and the instance's capability devices. */
    List<String> files(String gpu) {
      List<String> out = new ArrayList<>(List.of("/dev/nvidia" + gpu));
      if (giMinor >= 0 && ciMinor >= 0) {
        out.add("/dev/nvidia-caps/nvidia-cap" + giMinor);
        out.add("/dev/nvidia-caps/nvidia-cap" + ciMinor);
      }
      return out;
    }
  }

  /** The instances of the GPU of this nvidia-smi index, in MIG device order; none when not in MIG mode. */
  List<Instance> of(String gpu) {
    return byGpu.getOrDefault(gpu, List.of());
  }

  static MigDevices parse(String list, String table, String minorsText) {
    Map<String, Integer> minors = new HashMap<>();
    for (String line : minorsText.split("\\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 2 && f[1].matches("\\d{1,9}")) {
        minors.put(f[0], Integer.parseInt(f[1]));
      }
    }
    Map<String, int[]> ids = new HashMap<>(); // "gpu/dev" -> {gi, ci}
    for (String line : table.split("\\n")) {
      Matcher m = TABLE_ROW.matcher(line);
      if (m.matches()) {
        ids.put(m.group(1) + "/" + m.group(4),
            new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))});
      }
    }
    Map<String, List<Instance>> out = new HashMap<>();
    String gpu = null;
    for (String line : list.split("\\n")) {
      Matcher g = GPU_LINE.matcher(line);
      Matcher m = MIG_LINE.matcher(line);
      if (g.matches()) {
        gpu = g.group(1);
      } else if (gpu != null && m.find()) {
        int[] gc = ids.get(gpu + "/" + m.group(2));
        int gi = gc == null ? -1 : minors.getOrDefault("gpu" + gpu + "/gi" + gc[0] + "/access", -1);
        int ci = gc == null ? -1
            : minors.getOrDefault("gpu" + gpu + "/gi" + gc[0] + "/ci" + gc[1] + "/access", -1);
        out.computeIfAbsent(gpu, k -> new ArrayList<>()).add(new Instance(m.group(1), m.group(3), gi, ci));
      }
    }
    return new MigDevices(out);
  }
}

package org.corral.slurmd.gres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.corral.protocol.msg.GresSlot;

/**
 * GPU autodetection (gres.conf AutoDetect=nvml) through the {@code nvidia-smi} command rather
 * than libnvidia-ml: its CSV query ({@code --query-gpu=index,name,uuid,pci.bus_id,memory.total
 * --format=csv,noheader}) gives the GPUs, {@code nvidia-smi topo -m} their close CPUs and NVLinks.
 * Each GPU becomes a slot of one: Type from its name as Slurm forms it (lower case, spaces as
 * underscores: {@code nvidia_h100_80gb_hbm3}), File /dev/nvidiaINDEX, Cores from CPU Affinity,
 * Links as Slurm's list (-1 for itself, the NVLink count to each other GPU). A GPU in MIG mode
 * ({@code nvidia-smi -L} lists MIG devices under it) gives its MIG instances instead (see
 * {@link MigDevices}).
 */
public final class NvidiaSmi {
  /** The command's output for a query, or null where it cannot run. */
  public interface Runner {
    String run(List<String> args) throws IOException;
  }

  /** Where the driver lists the minor numbers of MIG capability devices. */
  static final Path MIG_MINORS = Path.of("/proc/driver/nvidia-caps/mig-minors");

  private final Runner runner;
  private final Supplier<String> migMinors;

  public NvidiaSmi(Runner runner) {
    this(runner, () -> {
      try {
        return Files.readString(MIG_MINORS);
      } catch (IOException e) {
        return "";
      }
    });
  }

  /** @param migMinors the text of /proc/driver/nvidia-caps/mig-minors */
  public NvidiaSmi(Runner runner, Supplier<String> migMinors) {
    this.runner = runner;
    this.migMinors = migMinors;
  }

  /** The real command: {@code nvidia-smi} on PATH, or the program CORRAL_NVIDIA_SMI names. */
  public static NvidiaSmi system() {
    String cmd = System.getenv().getOrDefault("CORRAL_NVIDIA_SMI", "nvidia-smi");
    return new NvidiaSmi(args -> {
      List<String> argv = new ArrayList<>();
      argv.add(cmd);
      argv.addAll(args);
      Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      try {
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
          p.destroyForcibly();
          return null;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
      return out;
    });
  }

  /** One GPU's state now: utilisation %, framebuffer memory used and total (MiB), power (W), temperature (C). */
  public record GpuReading(int index, double utilPercent, double memUsedMib, double memTotalMib, double powerWatts,
      double temperatureC) {}

  /** Each GPU's utilisation and memory now (node metrics); none where nvidia-smi is missing or fails. */
  public List<GpuReading> readings() {
    String out;
    try {
      out = runner.run(List.of("--query-gpu=index,utilization.gpu,memory.used,memory.total,power.draw,temperature.gpu",
          "--format=csv,noheader,nounits"));
    } catch (IOException e) {
      return List.of();
    }
    return out == null ? List.of() : parseReadings(out);
  }

  static List<GpuReading> parseReadings(String csv) {
    List<GpuReading> out = new ArrayList<>();
    for (String line : csv.split("\n")) {
      String[] f = line.split(",");
      if (f.length < 6) {
        continue;
      }
      try {
        out.add(new GpuReading(Integer.parseInt(f[0].trim()), reading(f[1]), reading(f[2]), reading(f[3]),
            reading(f[4]), reading(f[5])));
      } catch (NumberFormatException e) {
        // a line that is not a GPU's
      }
    }
    return out;
  }

  /** A number nvidia-smi printed, NaN for its "[N/A]" and the like. */
  private static double reading(String v) {
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /** The GPUs found; none where nvidia-smi is missing or fails. */
  public List<GresSlot> detect() {
    try {
      String query = runner.run(List.of("--query-gpu=index,name,uuid,pci.bus_id,memory.total",
          "--format=csv,noheader"));
      if (query == null) {
        return List.of();
      }
      String topo = runner.run(List.of("topo", "-m"));
      String list = runner.run(List.of("-L"));
      MigDevices mig = MigDevices.NONE;
      if (list != null && list.contains("MIG ")) {
        String table = runner.run(List.of());
        mig = MigDevices.parse(list, table == null ? "" : table, migMinors.get());
      }
      return parse(query, topo == null ? "" : topo, mig);
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The slots for nvidia-smi's CSV query output and its topology matrix (may be ""), no MIG. */
  public static List<GresSlot> parse(String query, String topo) {
    return parse(query, topo, MigDevices.NONE);
  }

  /**
   * The slots: each GPU a slot of one, except that a GPU in MIG mode gives a slot per MIG
   * instance instead (its own device files, its UUID), in the order nvidia-smi lists them, as
   * Slurm numbers them.
   */
  static List<GresSlot> parse(String query, String topo, MigDevices mig) {
    List<String[]> gpus = new ArrayList<>();
    for (String line : query.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      if (f.length < 2) {
        continue;
      }
      gpus.add(new String[] {f[0].trim(), f[1].trim()});
    }
    Topology t = Topology.parse(topo);
    List<GresSlot> out = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      String index = gpus.get(i)[0];
      String row = "GPU" + index;
      GresSlot gpu = GresSlot.newBuilder().setName("gpu").setType(type(gpus.get(i)[1])).setCount(1)
          .addFiles("/dev/nvidia" + index).setCores(t.cpuAffinity(row)).setLinks(t.links(row, gpus.size())).build();
      List<MigDevices.Instance> instances = mig.of(index);
      if (instances.isEmpty()) {
        out.add(gpu);
      }
      for (MigDevices.Instance m : instances) { // no NVLink between MIG instances
        out.add(gpu.toBuilder().setType(gpu.getType() + "_" + m.profile()).clearLinks().clearFiles()
            .addAllFiles(m.files(index)).setUniqueId(m.uuid()).build());
      }
    }
    return out;
  }

  /** Slurm's type for a device name: lower case, spaces as underscores. */
  static String type(String name) {
    return name.trim().toLowerCase(Locale.ROOT).replace(' ', '_');
  }

  /** {@code nvidia-smi topo -m}: a header of columns, then a row per GPU (and NIC). */
  record Topology(List<String> columns, List<List<String>> rows) {
    static Topology parse(String text) {
      List<String> columns = List.of();
      List<List<String>> rows = new ArrayList<>();
      for (String raw : text.split("\n")) {
        String line = raw.replaceAll("\u001b\\[[0-9;]*m", ""); // colour codes on a terminal
        if (line.isBlank()) {
          continue;
        }
        List<String> cells = new ArrayList<>();
        for (String c : line.split("\t")) {
          cells.add(c.trim());
        }
        if (columns.isEmpty() && cells.size() > 1 && cells.get(0).isEmpty()) {
          columns = cells.subList(1, cells.size());
        } else if (!columns.isEmpty() && cells.get(0).matches("GPU\\d+")) {
          rows.add(cells);
        }
      }
      return new Topology(columns, rows);
    }

    private List<String> row(String name) {
      for (List<String> r : rows) {
        if (r.get(0).equals(name)) {
          return r;
        }
      }
      return null;
    }

    String cpuAffinity(String gpu) {
      List<String> r = row(gpu);
      int col = columns.indexOf("CPU Affinity");
      if (r == null || col < 0 || col + 1 >= r.size()) {
        return "";
      }
      String v = r.get(col + 1);
      return v.equals("N/A") ? "" : v;
    }

    /** Slurm's Links: for each GPU in order, -1 for itself, else its NVLink count (NV4: 4), else 0. */
    String links(String gpu, int gpus) {
      List<String> r = row(gpu);
      if (r == null) {
        return "";
      }
      StringBuilder b = new StringBuilder();
      for (int k = 0; k < gpus; k++) {
        int col = columns.indexOf("GPU" + k);
        String v = col >= 0 && col + 1 < r.size() ? r.get(col + 1) : "";
        int n = v.equals("X") ? -1 : v.startsWith("NV") ? nvlinks(v.substring(2)) : 0;
        b.append(b.isEmpty() ? "" : ",").append(n);
      }
      return b.toString();
    }

    private static int nvlinks(String s) {
      try {
        return Integer.parseInt(s);
      } catch (NumberFormatException e) {
        return 0;
      }
    }
  }
}

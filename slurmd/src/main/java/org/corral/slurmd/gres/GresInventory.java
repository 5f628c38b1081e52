package org.corral.slurmd.gres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.corral.common.Hostlist;
import org.corral.common.config.ConfigException;
import org.corral.common.config.GresConf;
import org.corral.common.config.GresEntry;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.GresSlot;

/**
 * The generic resources this node has, as slurmd finds them at start: gres.conf's lines for the
 * node (or what AutoDetect=nvml finds through nvidia-smi, for GPUs), then slurm.conf's Gres= for
 * the names gres.conf does not mention (resources without device files, such as {@code nic:1}).
 * Index i of a name is the i-th unit of that name in this order, as Slurm numbers them.
 */
public final class GresInventory {
  private final List<GresSlot> slots;

  public GresInventory(List<GresSlot> slots) {
    this.slots = List.copyOf(slots);
  }

  public static GresInventory none() {
    return new GresInventory(List.of());
  }

  /** The GPUs gres.conf's AutoDetect (nvml, or nvidia: Slurm 24's name) finds for a node; none without it. */
  private static List<GresSlot> autodetected(GresConf conf, String node, NvidiaSmi smi) {
    boolean detect = conf != null && conf.autoDetect(node)
        .map(a -> a.equals("nvml") || a.equals("nvidia")).orElse(false);
    return detect ? smi.detect() : List.of();
  }

  /**
   * What slurmd -C adds as its node line's Gres=: the autodetected GPUs by type
   * ({@code gpu:nvidia_h100_80gb_hbm3:1}); "" when gres.conf asks for no detection or none is found.
   */
  public static String detectedSummary(Path gresConf, String node, NvidiaSmi smi) throws ConfigException, IOException {
    GresConf conf = Files.isRegularFile(gresConf) ? GresConf.load(gresConf) : null;
    java.util.Map<String, Long> byType = new java.util.LinkedHashMap<>();
    for (GresSlot s : autodetected(conf, node, smi)) {
      byType.merge(s.getName() + (s.getType().isEmpty() ? "" : ":" + s.getType()), s.getCount(), Long::sum);
    }
    List<String> out = new ArrayList<>();
    byType.forEach((k, n) -> out.add(k + ":" + n));
    return String.join(",", out);
  }

  /**
   * @param gresConf gres.conf beside slurm.conf (may not exist)
   * @param nodeGres the node's Gres= in slurm.conf ("" when none)
   * @param smi nvidia-smi, for AutoDetect=nvml or nvidia (Slurm 24's name for the same detection)
   */
  public static GresInventory load(Path gresConf, String node, String nodeGres, NvidiaSmi smi)
      throws ConfigException, IOException {
    List<GresSlot> out = new ArrayList<>();
    GresConf conf = Files.isRegularFile(gresConf) ? GresConf.load(gresConf) : null;
    List<GresSlot> detected = configuredTypes(autodetected(conf, node, smi), nodeGres);
    out.addAll(detected);
    if (conf != null) {
      for (GresEntry e : conf.forNode(node)) {
        if (!detected.isEmpty() && e.name().equals("gpu")) {
          continue; // found ones take the place of configured GPUs (Slurm merges them; see docs)
        }
        if (SHARING.contains(e.name()) && e.files().size() > 1 && e.count() != e.files().size()) {
          out.addAll(spread(e)); // Count=8 File=/dev/nvidia[0-1]: 4 on each GPU
          continue;
        }
        GresSlot.Builder b = GresSlot.newBuilder().setName(e.name()).setType(e.type()).setCount(e.count())
            .setCores(e.cores()).setLinks(e.links());
        if (!e.files().isEmpty() && (e.files().size() == e.count() || SHARING.contains(e.name()))) {
          b.addAllFiles(e.files()); // a shared name's line per GPU: Name=mps Count=100 File=/dev/nvidia0
        } else if (!e.multipleFiles().isEmpty()) {
          b.addAllFiles(e.multipleFiles());
        }
        out.add(b.build());
      }
    }
    inheritCores(out);
    List<String> have = out.stream().map(GresSlot::getName).distinct().toList();
    for (GresCount c : GresCount.parseList(nodeGres)) {
      if (!have.contains(c.name())) {
        out.add(GresSlot.newBuilder().setName(c.name()).setType(c.type()).setCount(c.count()).build());
      }
    }
    return new GresInventory(out);
  }

  /**
   * Detected GPUs take the type slurm.conf's Gres= gives them where that type is part of the
   * detected name, as Slurm matches them ({@code gpu:1g.10gb:2} names the MIG instances
   * detected as {@code nvidia_a100-sxm4-80gb_1g.10gb}); the longest such type wins.
   */
  private static List<GresSlot> configuredTypes(List<GresSlot> detected, String nodeGres) {
    List<String> types = new ArrayList<>();
    for (GresCount c : GresCount.parseList(nodeGres)) {
      if (c.name().equals("gpu") && !c.type().isEmpty()) {
        types.add(c.type());
      }
    }
    List<GresSlot> out = new ArrayList<>();
    for (GresSlot s : detected) {
      String found = s.getType().toLowerCase(java.util.Locale.ROOT);
      String type = types.stream().filter(t -> found.contains(t.toLowerCase(java.util.Locale.ROOT)))
          .max(java.util.Comparator.comparingInt(String::length)).orElse(s.getType());
      out.add(s.toBuilder().setType(type).build());
    }
    return out;
  }

  /** Names whose units share GPUs' device files. */
  static final java.util.Set<String> SHARING = java.util.Set.of("shard", "mps");

  /** Shared units without Cores= have their GPU's (the slot with the same file), as Slurm gives them. */
  private static void inheritCores(List<GresSlot> slots) {
    for (int i = 0; i < slots.size(); i++) {
      GresSlot s = slots.get(i);
      if (SHARING.contains(s.getName()) && s.getCores().isEmpty() && s.getFilesCount() == 1) {
        for (GresSlot g : slots) {
          if (g.getName().equals("gpu") && g.getFilesList().contains(s.getFiles(0)) && !g.getCores().isEmpty()) {
            slots.set(i, s.toBuilder().setCores(g.getCores()).build());
            break;
          }
        }
      }
    }
  }

  /** A shared GRES line over several GPU files: its count spread evenly over them, one slot per file. */
  private static List<GresSlot> spread(GresEntry e) {
    List<GresSlot> out = new ArrayList<>();
    int n = e.files().size();
    for (int i = 0; i < n; i++) {
      long share = e.count() / n + (i < e.count() % n ? 1 : 0);
      if (share > 0) {
        out.add(GresSlot.newBuilder().setName(e.name()).setType(e.type()).setCount(share).addFiles(e.files().get(i))
            .setCores(e.cores()).build());
      }
    }
    return out;
  }

  public List<GresSlot> slots() {
    return slots;
  }

  /** The device files of a name's units at these indices (those that have files). */
  public List<String> files(String name, List<Integer> indices) {
    List<String> out = new ArrayList<>();
    for (Unit unit : unitsAt(name, indices)) {
      unitFiles(unit.slot(), unit.offset()).stream().filter(f -> !out.contains(f)).forEach(out::add);
    }
    return out;
  }

  /** Unit {@code offset} of a slot. */
  private record Unit(GresSlot slot, int offset) {}

  /** A name's units at these indices, in order. */
  private List<Unit> unitsAt(String name, List<Integer> indices) {
    List<Unit> out = new ArrayList<>();
    int next = 0;
    for (GresSlot s : slots) {
      if (!s.getName().equals(name)) {
        continue;
      }
      for (int u = 0; u < s.getCount(); u++, next++) {
        if (indices.contains(next)) {
          out.add(new Unit(s, u));
        }
      }
    }
    return out;
  }

  /** Every device file of every unit, in order. */
  public List<String> allFiles() {
    List<String> out = new ArrayList<>();
    for (GresSlot s : slots) {
      if (s.getFilesCount() == s.getCount() || s.getFilesCount() == 1 || s.getCount() == 1) {
        out.addAll(s.getFilesList());
      }
    }
    return out;
  }

  /**
   * The files of unit u of a slot: its own file (one per unit), the one file shared units use,
   * or every file of a slot of one unit with several (a MIG instance, MultipleFiles).
   */
  private static List<String> unitFiles(GresSlot s, int u) {
    if (s.getFilesCount() == s.getCount()) {
      return List.of(s.getFiles(u));
    }
    if (s.getFilesCount() == 1 || s.getCount() == 1) {
      return s.getFilesList();
    }
    return List.of();
  }

  /** The MIG UUIDs of a name's units at these indices, where every one has one; else empty. */
  public List<String> uniqueIds(String name, List<Integer> indices) {
    List<String> out = new ArrayList<>();
    for (Unit unit : unitsAt(name, indices)) {
      if (unit.slot().getUniqueId().isEmpty()) {
        return List.of();
      }
      out.add(unit.slot().getUniqueId());
    }
    return out;
  }

  /** How many units of a shared name (mps) the GPU with this device file has; 0 when none. */
  public long sharedCount(String name, String gpuFile) {
    return slots.stream().filter(s -> s.getName().equals(name) && s.getFilesList().equals(List.of(gpuFile)))
        .mapToLong(GresSlot::getCount).sum();
  }

  /**
   * What {@code slurmd -G} prints, one line per slot, as Slurm 22.05 does:
   * {@code Gres Name=gpu Type=(null) Count=2 Index=0 ID=7696487 File=/dev/nvidia[0-1] Cores=0-3 CoreCnt=8 (null)}.
   */
  public List<String> describe(int coreCount) {
    List<String> out = new ArrayList<>();
    java.util.Map<String, Integer> next = new java.util.HashMap<>();
    for (GresSlot s : slots) {
      int first = next.getOrDefault(s.getName(), 0);
      next.put(s.getName(), first + (int) s.getCount());
      StringBuilder b = new StringBuilder("Gres Name=").append(s.getName()).append(" Type=")
          .append(s.getType().isEmpty() ? "(null)" : s.getType()).append(" Count=").append(s.getCount());
      if (s.getFilesCount() > 0) {
        b.append(" Index=").append(first);
      }
      b.append(" ID=").append(id(s.getName()));
      if (s.getFilesCount() > 0) {
        b.append(" File=").append(Hostlist.compress(s.getFilesList()));
      }
      if (!s.getCores().isEmpty()) {
        b.append(" Cores=").append(s.getCores()).append(" CoreCnt=").append(coreCount);
      }
      b.append(' ').append(s.getLinks().isEmpty() ? "(null)" : "Links=" + s.getLinks());
      out.add(b.toString());
    }
    return out;
  }

  /** Slurm's plugin id of a GRES name (gres_build_id): each character shifted by 8 bits times its position mod 4. */
  static long id(String name) {
    long id = 0;
    for (int i = 0; i < name.length(); i++) {
      id += ((long) name.charAt(i)) << ((i % 4) * 8);
    }
    return id & 0xffffffffL;
  }

  /** The cores gres.conf's Cores= gives for these units (empty where none is given or readable). */
  public java.util.BitSet closeCores(List<org.corral.protocol.msg.GresAlloc> given) {
    return org.corral.protocol.Gres.closeCpus(slots, given);
  }

  /** The GPU indices whose gres.conf Cores= include any of these node CPUs (--gpu-bind=closest). */
  public List<Integer> gpusNear(java.util.BitSet cpus) {
    List<Integer> out = new ArrayList<>();
    int first = 0;
    for (GresSlot s : slots) {
      if (!s.getName().equals("gpu")) {
        continue;
      }
      try {
        if (!s.getCores().isEmpty() && org.corral.protocol.CpuList.parse(s.getCores()).intersects(cpus)) {
          for (int i = 0; i < s.getCount(); i++) {
            out.add(first + i);
          }
        }
      } catch (IllegalArgumentException e) {
        // a Cores= that cannot be read puts the GPU near nothing
      }
      first += (int) s.getCount();
    }
    return out;
  }

  /** The node's units of a name, counted. */
  public long count(String name) {
    return slots.stream().filter(s -> s.getName().equals(name)).mapToLong(GresSlot::getCount).sum();
  }

  public Optional<GresSlot> first(String name) {
    return slots.stream().filter(s -> s.getName().equals(name)).findFirst();
  }
}

package org.corral.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.NodeAllocation;

/**
 * Generic resources as the daemons and commands pass them: a node's {@link GresSlot}s (what it
 * has) and {@link GresAlloc}s (indices taken, per name and type). Index i of a name is the i-th
 * resource of that name in the node's slot order, as Slurm numbers them (IDX, CUDA_VISIBLE_DEVICES).
 */
public final class Gres {
  private Gres() {}

  /**
   * The node CPUs gres.conf's Cores= puts close to the given units (empty where none is given or
   * readable): where a job's CPUs are taken first, and only there with enforce-binding.
   */
  public static java.util.BitSet closeCpus(List<GresSlot> slots, List<GresAlloc> given) {
    java.util.BitSet out = new java.util.BitSet();
    java.util.Map<String, Integer> next = new java.util.HashMap<>();
    for (GresSlot s : slots) {
      int first = next.getOrDefault(s.getName(), 0);
      next.put(s.getName(), first + (int) s.getCount());
      if (s.getCores().isEmpty()) {
        continue;
      }
      for (GresAlloc a : given) {
        if (a.getName().equals(s.getName())
            && a.getIndicesList().stream().anyMatch(i -> i >= first && i < first + s.getCount())) {
          try {
            out.or(CpuList.parse(s.getCores()));
          } catch (IllegalArgumentException e) {
            // a Cores= that cannot be read binds nothing
          }
        }
      }
    }
    return out;
  }

  /** Slots for slurm.conf's Gres= of a node ({@code gpu:a100:2,nic:1}), without files. */
  public static List<GresSlot> slotsFromConfig(String gres) {
    List<GresSlot> out = new ArrayList<>();
    for (GresCount c : GresCount.parseList(gres)) {
      out.add(GresSlot.newBuilder().setName(c.name()).setType(c.type()).setCount(c.count()).build());
    }
    return out;
  }

  /** How many resources of a name (and type, "" = any) the slots hold. */
  public static long total(List<GresSlot> slots, String name, String type) {
    long n = 0;
    for (GresSlot s : slots) {
      if (s.getName().equalsIgnoreCase(name) && (type.isEmpty() || s.getType().equals(type))) {
        n += s.getCount();
      }
    }
    return n;
  }

  /** The names in slot order, each once. */
  public static List<String> names(List<GresSlot> slots) {
    List<String> out = new ArrayList<>();
    for (GresSlot s : slots) {
      if (!out.contains(s.getName())) {
        out.add(s.getName());
      }
    }
    return out;
  }

  /** {@code used} with {@code delta}'s indices added (sign > 0) or removed; sorted, one entry per name and type. */
  public static List<GresAlloc> plus(List<GresAlloc> used, List<GresAlloc> delta, int sign) {
    Map<String, TreeSet<Integer>> by = new TreeMap<>();
    Map<String, String[]> keys = new TreeMap<>();
    for (GresAlloc a : used) {
      String k = a.getName() + "\0" + a.getType();
      keys.putIfAbsent(k, new String[] {a.getName(), a.getType()});
      by.computeIfAbsent(k, x -> new TreeSet<>()).addAll(a.getIndicesList());
    }
    for (GresAlloc a : delta) {
      String k = a.getName() + "\0" + a.getType();
      keys.putIfAbsent(k, new String[] {a.getName(), a.getType()});
      TreeSet<Integer> set = by.computeIfAbsent(k, x -> new TreeSet<>());
      if (sign > 0) {
        set.addAll(a.getIndicesList());
      } else {
        set.removeAll(a.getIndicesList());
      }
    }
    List<GresAlloc> out = new ArrayList<>();
    by.forEach((k, set) -> {
      if (!set.isEmpty()) {
        out.add(GresAlloc.newBuilder().setName(keys.get(k)[0]).setType(keys.get(k)[1]).addAllIndices(set).build());
      }
    });
    return out;
  }

  /**
   * The GPU indices that units of a shared name (shard) at these indices belong to: the GPUs
   * with the same device file.
   */
  public static List<Integer> gpuIndicesOf(List<GresSlot> slots, String name, List<Integer> units) {
    List<String> files = new ArrayList<>();
    List<String> gpuFiles = new ArrayList<>();
    int next = 0;
    for (GresSlot s : slots) {
      for (int u = 0; u < s.getCount() && u < 4096; u++) {
        String f = s.getFilesCount() == s.getCount() ? s.getFiles(u) : s.getFilesCount() == 1 ? s.getFiles(0) : "";
        if (s.getName().equals("gpu")) {
          gpuFiles.add(f);
        } else if (s.getName().equals(name)) {
          if (units.contains(next + u) && !f.isEmpty()) {
            files.add(f);
          }
        }
      }
      if (s.getName().equals(name)) {
        next += (int) s.getCount();
      }
    }
    TreeSet<Integer> out = new TreeSet<>();
    for (int g = 0; g < gpuFiles.size(); g++) {
      if (files.contains(gpuFiles.get(g))) {
        out.add(g);
      }
    }
    return new ArrayList<>(out);
  }

  /** The indices of a name taken in these allocations, ascending. */
  public static List<Integer> indices(List<GresAlloc> allocs, String name) {
    TreeSet<Integer> set = new TreeSet<>();
    for (GresAlloc a : allocs) {
      if (a.getName().equalsIgnoreCase(name)) {
        set.addAll(a.getIndicesList());
      }
    }
    return new ArrayList<>(set);
  }

  /** Indices as Slurm's bitmap ranges: {@code 0-1,3}; "N/A" when none. */
  public static String ranges(List<Integer> sorted) {
    if (sorted.isEmpty()) {
      return "N/A";
    }
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      b.append(b.isEmpty() ? "" : ",").append(sorted.get(i));
      if (j > i) {
        b.append('-').append(sorted.get(j));
      }
      i = j + 1;
    }
    return b.toString();
  }

  /**
   * The node CPUs the controller chose for the job on one node (CPU_IDs); none when it has none
   * there, for records from before it chose them, or when the list is unreadable.
   */
  public static java.util.BitSet cpusOn(List<NodeAllocation> allocation, String node) {
    return cpusOf(on(allocation, node));
  }

  /** The CPUs of one node's allocation (none for null, an older record or an unreadable list). */
  public static java.util.BitSet cpusOf(NodeAllocation here) {
    try {
      return here == null ? new java.util.BitSet() : CpuList.parse(here.getCpuIds());
    } catch (IllegalArgumentException e) {
      return new java.util.BitSet();
    }
  }

  /** The job's allocation on one node, or null when it has none there. */
  public static NodeAllocation on(List<NodeAllocation> allocation, String node) {
    for (NodeAllocation a : allocation) {
      if (a.getNode().equals(node)) {
        return a;
      }
    }
    return null;
  }

  /**
   * A job's generic resources on one node as Slurm shows them (scontrol -d's GRES=, the REST
   * job's gres_detail): {@code gpu:tesla:2(IDX:0-1)}; "" when none.
   */
  public static String onNode(NodeAllocation a) {
    List<String> out = new ArrayList<>();
    for (GresAlloc g : a.getGresList()) {
      List<Integer> idx = new ArrayList<>(g.getGpuIndicesCount() > 0 ? g.getGpuIndicesList() : g.getIndicesList());
      idx.sort(null);
      out.add(g.getName() + (g.getType().isEmpty() ? "" : ":" + g.getType()) + ":" + g.getIndicesCount()
          + "(IDX:" + ranges(idx) + ")"); // a shard's IDX: its GPU's, as Slurm shows it
    }
    return String.join(",", out);
  }
}

package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.NodeInfo;

/**
 * A node's generic resources one by one: each unit has its name, type, index among the node's
 * units of that name (Slurm's IDX), and the cores gres.conf says are close to it. The planner
 * keeps which are taken as bit sets over these positions, and picks units for a job.
 */
final class GresUnits {
  /** Units beyond this many per slot are not scheduled one by one (huge counts: bandwidth-like). */
  static final int MAX_PER_SLOT = 4096;
  static final GresUnits EMPTY = new GresUnits(new String[0], new String[0], new int[0], new String[0],
      new String[0], new int[0][]);
  /** Names whose units share a GPU's device file: never in use while the GPU is used whole, and the other way round. */
  static final java.util.Set<String> SHARING = java.util.Set.of("shard", "mps");

  private final String[] names;
  private final String[] types;
  private final int[] index;
  private final String[] cores;
  private final String[] files; // the unit's device file, "" when none
  private final int[][] links; // gres.conf Links=: NVLinks to each GPU index (-1 itself); empty when none

  private GresUnits(String[] names, String[] types, int[] index, String[] cores, String[] files, int[][] links) {
    this.names = names;
    this.types = types;
    this.index = index;
    this.cores = cores;
    this.files = files;
    this.links = links;
  }

  static GresUnits of(NodeInfo n) {
    return of(n.getGresSlotsList());
  }

  static GresUnits of(List<GresSlot> slots) {
    if (slots.isEmpty()) {
      return EMPTY;
    }
    List<String> nm = new ArrayList<>();
    List<String> ty = new ArrayList<>();
    List<Integer> ix = new ArrayList<>();
    List<String> co = new ArrayList<>();
    List<String> fi = new ArrayList<>();
    List<int[]> li = new ArrayList<>();
    Map<String, Integer> next = new LinkedHashMap<>();
    for (GresSlot s : slots) {
      long count = Math.min(s.getCount(), MAX_PER_SLOT);
      for (long u = 0; u < count; u++) {
        int i = next.merge(s.getName(), 1, Integer::sum) - 1;
        nm.add(s.getName());
        ty.add(s.getType());
        ix.add(i);
        co.add(s.getCores());
        fi.add(s.getFilesCount() == s.getCount() ? s.getFiles((int) u) : s.getFilesCount() == 1 ? s.getFiles(0) : "");
        li.add(links(s.getLinks()));
      }
    }
    return new GresUnits(nm.toArray(String[]::new), ty.toArray(String[]::new),
        ix.stream().mapToInt(Integer::intValue).toArray(), co.toArray(String[]::new), fi.toArray(String[]::new),
        li.toArray(int[][]::new));
  }

  /** "-1,18,0" as numbers; none when absent or unreadable (then no unit prefers another). */
  private static int[] links(String text) {
    if (text.isBlank()) {
      return new int[0];
    }
    try {
      return java.util.Arrays.stream(text.split(",")).mapToInt(t -> Integer.parseInt(t.trim())).toArray();
    } catch (NumberFormatException e) {
      return new int[0];
    }
  }

  int size() {
    return names.length;
  }

  int words() {
    return (names.length + 63) / 64;
  }

  /** The positions of these allocations' units, as a bit set of {@link #words()} words. */
  long[] bits(List<GresAlloc> allocs) {
    long[] out = new long[words()];
    for (GresAlloc a : allocs) {
      for (int idx : a.getIndicesList()) {
        for (int p = 0; p < names.length; p++) {
          if (index[p] == idx && names[p].equals(a.getName())) {
            out[p >> 6] |= 1L << (p & 63);
            break;
          }
        }
      }
    }
    return out;
  }

  /**
   * Whether the units of these allocations are all free beside {@code held}: none held, none
   * on a device file another name's held unit shares (a shard and its GPU).
   */
  boolean free(List<GresAlloc> held, List<GresAlloc> wanted) {
    long[] busy = bits(held);
    long[] want = bits(wanted);
    for (int p = 0; p < names.length; p++) {
      if ((want[p >> 6] & (1L << (p & 63))) != 0
          && ((busy[p >> 6] & (1L << (p & 63))) != 0 || heldFiles(busy, names[p]).contains(files[p]))) {
        return false;
      }
    }
    return true;
  }

  /** Whether the node has enough units, taken or not, for these needs. */
  boolean couldHold(List<GresCount> needs) {
    return pick(new long[words()], needs) != null;
  }

  /**
   * Units for the needs among those not busy, or null when they are not there. Each need takes
   * the lowest free indices of its name (and type), preferring units that share their close
   * cores (one socket) when such a group can hold the whole need.
   */
  List<GresAlloc> pick(long[] busy, List<GresCount> needs) {
    if (needs.isEmpty()) {
      return List.of();
    }
    long[] taken = busy.clone();
    Map<String, List<Integer>> chosen = new LinkedHashMap<>(); // name \0 type -> indices
    for (GresCount need : needs) {
      if (need.count() <= 0) {
        continue;
      }
      List<Integer> free = new ArrayList<>();
      java.util.Set<String> held = heldFiles(taken, need.name());
      for (int p = 0; p < names.length; p++) {
        if ((taken[p >> 6] & (1L << (p & 63))) == 0 && names[p].equals(need.name())
            && (need.type().isEmpty() || types[p].equals(need.type())) && !held.contains(files[p])) {
          free.add(p);
        }
      }
      if (free.size() < need.count()) {
        return null;
      }
      List<Integer> use = closeGroup(free, (int) need.count(), need.name().equals("mps"));
      if (use == null) {
        return null;
      }
      for (int p : use) {
        taken[p >> 6] |= 1L << (p & 63);
        chosen.computeIfAbsent(names[p] + "\0" + types[p], k -> new ArrayList<>()).add(index[p]);
      }
    }
    List<GresAlloc> out = new ArrayList<>();
    chosen.forEach((k, idx) -> {
      String[] nt = k.split("\0", -1);
      GresAlloc.Builder b = GresAlloc.newBuilder().setName(nt[0]).setType(nt[1])
          .addAllIndices(idx.stream().sorted().toList());
      if (SHARING.contains(nt[0])) {
        b.addAllGpuIndices(gpusOf(nt[0], idx));
      }
      out.add(b.build());
    });
    return out;
  }

  /**
   * As {@link #pick}, among units whose close cores (gres.conf Cores=, "" for none) pass
   * {@code coresOk}: a --gres-flags=enforce-binding job's GPUs where enough CPUs near them are free.
   */
  List<GresAlloc> pickWithin(long[] busy, List<GresCount> needs, java.util.function.Predicate<String> coresOk) {
    long[] barred = busy.clone();
    for (int p = 0; p < names.length; p++) {
      if (!coresOk.test(cores[p])) {
        barred[p >> 6] |= 1L << (p & 63);
      }
    }
    return pick(barred, needs);
  }

  /**
   * The device files that units of another name hold, which units of {@code name} cannot use:
   * a GPU used whole blocks its shards, a shard in use blocks its GPU.
   */
  private java.util.Set<String> heldFiles(long[] taken, String name) {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (int p = 0; p < names.length; p++) {
      if ((taken[p >> 6] & (1L << (p & 63))) != 0 && !names[p].equals(name) && !files[p].isEmpty()
          && (SHARING.contains(names[p]) || SHARING.contains(name))) {
        out.add(files[p]);
      }
    }
    return out;
  }

  /** The GPU indices whose device files the shared units of {@code name} at these indices use. */
  private List<Integer> gpusOf(String name, List<Integer> indices) {
    java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
    for (int p = 0; p < names.length; p++) {
      if (names[p].equals(name) && indices.contains(index[p]) && !files[p].isEmpty()) {
        for (int g = 0; g < names.length; g++) {
          if (names[g].equals("gpu") && files[g].equals(files[p])) {
            out.add(index[g]);
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /**
   * count of the free positions: the first group with the same close cores (or, for shared
   * units, the same GPU) that holds them all, else any; within it a set the most NVLinks join.
   * mps must come from one GPU (Slurm's rule): null when no GPU has enough.
   */
  private List<Integer> closeGroup(List<Integer> free, int count, boolean oneGpu) {
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (int p : free) { // shared units of one GPU together, else GPUs of one socket together
      groups.computeIfAbsent(SHARING.contains(names[p]) ? files[p] : cores[p], k -> new ArrayList<>()).add(p);
    }
    for (List<Integer> g : groups.values()) {
      if (g.size() >= count) {
        return linked(g, count);
      }
    }
    return oneGpu ? null : linked(free, count);
  }

  /**
   * count of these positions joined by the most NVLinks (gres.conf Links=): from each one in
   * turn, the unit with the most links to those taken is added; the best set wins, the lowest
   * positions on ties. Without links, the lowest positions.
   */
  private List<Integer> linked(List<Integer> candidates, int count) {
    if (count < 2 || candidates.stream().allMatch(p -> links[p].length == 0)) {
      return candidates.subList(0, count);
    }
    List<Integer> best = null;
    long bestScore = -1;
    for (int seed : candidates) {
      List<Integer> set = new ArrayList<>(List.of(seed));
      long score = 0;
      while (set.size() < count) {
        int pick = -1;
        long gain = -1;
        for (int p : candidates) {
          long g = set.contains(p) ? -1 : set.stream().mapToLong(q -> nvlinks(p, q)).sum();
          if (g > gain) {
            gain = g;
            pick = p;
          }
        }
        set.add(pick);
        score += gain;
      }
      if (score > bestScore) {
        bestScore = score;
        best = set;
      }
    }
    return best.stream().sorted().toList();
  }

  /** NVLinks between the units at positions p and q (GPUs: Links= is by GPU index). */
  private int nvlinks(int p, int q) {
    int[] l = links[p];
    return index[q] < l.length ? Math.max(0, l[index[q]]) : 0;
  }
}

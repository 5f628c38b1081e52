package org.corral.common;

import java.util.ArrayList;
import java.util.List;

/**
 * Which global task ids go to which of a step's nodes, as srun's -m/--distribution first level
 * lays them out over the nodes (the second and third levels, sockets and cores, only bind).
 * block: consecutive ids per node, the counts Slurm's block layout gives; cyclic: one task per
 * node in turn, skipping nodes that are full; plane=N: N consecutive tasks per node in turn.
 * Recorded on the reference: inside an allocation of 5,1 CPUs, {@code -n6 -m cyclic} runs
 * 0:n1 1:n2 2-5:n1 and {@code -n7 -m plane=2} 0,1:n1 2:n2 3-6:n1.
 */
public record TaskDistribution(Kind kind, int planeSize) {

  /** The first level's kinds. */
  public enum Kind { BLOCK, CYCLIC, PLANE, ARBITRARY }

  public static final TaskDistribution BLOCK = new TaskDistribution(Kind.BLOCK, 0);

  /**
   * Reads -m as srun passes it ("cyclic", "plane=2", "block:cyclic,pack", "*:block", "" = block).
   *
   * @throws IllegalArgumentException when Slurm would refuse it
   */
  public static TaskDistribution parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
    int comma = t.indexOf(',');
    if (comma >= 0) {
      String pack = t.substring(comma + 1);
      if (!pack.equals("pack") && !pack.equals("nopack")) {
        throw new IllegalArgumentException(text);
      }
      t = t.substring(0, comma);
    }
    if (t.startsWith("plane=")) {
      int n;
      try {
        n = Integer.parseInt(t.substring(6));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(text, e);
      }
      if (n <= 0) {
        throw new IllegalArgumentException(text);
      }
      return new TaskDistribution(Kind.PLANE, n);
    }
    String[] levels = t.split(":", -1);
    if (levels.length > 3) {
      throw new IllegalArgumentException(text);
    }
    for (int i = 1; i < levels.length; i++) {
      if (!List.of("*", "block", "cyclic", "fcyclic").contains(levels[i])) {
        throw new IllegalArgumentException(text);
      }
    }
    return switch (levels[0]) {
      case "", "*", "block" -> BLOCK;
      case "cyclic" -> new TaskDistribution(Kind.CYCLIC, 0);
      case "arbitrary" -> new TaskDistribution(Kind.ARBITRARY, 0);
      default -> throw new IllegalArgumentException(text);
    };
  }

  /**
   * SLURM_DISTRIBUTION as Slurm writes it for a -m it read: lower case, "*" as block, plane=N as
   * plane (its size goes in SLURM_DIST_PLANESIZE).
   */
  public static String shown(String text) {
    String t = text.strip().toLowerCase(java.util.Locale.ROOT);
    if (t.startsWith("plane=")) {
      return "plane";
    }
    return t.replace("*", "block");
  }

  /** The N of a readable "plane=N"; 0 for any other text. */
  public static int planeSizeOf(String text) {
    try {
      TaskDistribution d = parse(text);
      return d.kind() == Kind.PLANE ? d.planeSize() : 0;
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  /**
   * The task ids on each node.
   *
   * @param counts the block layout's tasks per node, which bound what each node takes
   * @param room how many tasks each node can hold
   */
  public List<List<Integer>> taskIds(List<Integer> counts, List<Integer> room) {
    int nodes = counts.size();
    List<List<Integer>> ids = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      ids.add(new ArrayList<>());
    }
    int tasks = counts.stream().mapToInt(Integer::intValue).sum();
    if (kind == Kind.BLOCK || kind == Kind.ARBITRARY) {
      int next = 0;
      for (int i = 0; i < nodes; i++) {
        for (int k = 0; k < counts.get(i); k++) {
          ids.get(i).add(next++);
        }
      }
      return ids;
    }
    int chunk = kind == Kind.PLANE ? planeSize : 1;
    int next = 0;
    while (next < tasks) {
      boolean placed = false;
      for (int i = 0; i < nodes && next < tasks; i++) {
        for (int k = 0; k < chunk && next < tasks && ids.get(i).size() < room.get(i); k++) {
          ids.get(i).add(next++);
          placed = true;
        }
      }
      if (!placed) {
        throw new IllegalStateException("more tasks than room");
      }
    }
    return ids;
  }
}

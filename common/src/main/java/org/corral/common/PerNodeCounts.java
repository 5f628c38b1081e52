package org.corral.common;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-node counts as Slurm writes them in SLURM_JOB_CPUS_PER_NODE and SLURM_TASKS_PER_NODE
 * ("2(x3),1"), and the block placement of tasks on nodes that the latter describes. Shared by
 * the commands (salloc, srun) and whoever else builds these variables.
 */
public final class PerNodeCounts {
  private PerNodeCounts() {}

  /** Runs of equal values written as "v(xN)", joined with commas: [2,2,2,1] is "2(x3),1". */
  public static String format(List<Integer> counts) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < counts.size()) {
      int value = counts.get(i);
      int run = 1;
      while (i + run < counts.size() && counts.get(i + run) == value) {
        run++;
      }
      if (!out.isEmpty()) {
        out.append(',');
      }
      out.append(value);
      if (run > 1) {
        out.append("(x").append(run).append(')');
      }
      i += run;
    }
    return out.toString();
  }

  /**
   * Block placement of {@code tasks} tasks: one on each node first, then each node filled in
   * order up to what its cpus hold ({@code cpus / cpusPerTask}), anything left round-robin.
   */
  public static List<Integer> placeTasks(int tasks, List<Integer> cpusPerNode, int cpusPerTask) {
    int nodes = cpusPerNode.size();
    List<Integer> placed = new ArrayList<>(nodes);
    int left = tasks;
    for (int i = 0; i < nodes; i++) {
      placed.add(left > 0 ? 1 : 0);
      left -= placed.get(i);
    }
    for (int i = 0; i < nodes && left > 0; i++) {
      int room = Math.max(1, cpusPerNode.get(i) / Math.max(1, cpusPerTask)) - placed.get(i);
      int more = Math.min(Math.max(room, 0), left);
      placed.set(i, placed.get(i) + more);
      left -= more;
    }
    for (int i = 0; left > 0 && nodes > 0; i = (i + 1) % nodes, left--) {
      placed.set(i, placed.get(i) + 1);
    }
    return placed;
  }
}

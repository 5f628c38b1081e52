package org.corral.common;

import java.util.List;

/**
 * Per-node counts as Slurm writes them in SLURM_JOB_CPUS_PER_NODE and SLURM_TASKS_PER_NODE:
 * runs of equal values as "v(xN)", joined with commas, so [2,2,2,1] is "2(x3),1".
 */
public final class RunLengthCounts {
  private RunLengthCounts() {}

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
}

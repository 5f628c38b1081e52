package org.corral.cli.submit;

import java.util.List;

/**
 * Per-node counts as Slurm writes them in SLURM_TASKS_PER_NODE and SLURM_JOB_CPUS_PER_NODE:
 * comma-separated, a run of equal values as "VALUE(xCOUNT)": [2, 1] is "2,1", [8, 8, 8, 8] is
 * "8(x4)", [2, 2, 1] is "2(x2),1".
 */
public final class RepeatedCounts {

  private RepeatedCounts() {}

  public static String format(List<Integer> counts) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < counts.size()) {
      int value = counts.get(i);
      int run = 1;
      while (i + run < counts.size() && counts.get(i + run) == value) {
        run++;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(value);
      if (run > 1) {
        sb.append("(x").append(run).append(')');
      }
      i += run;
    }
    return sb.toString();
  }
}

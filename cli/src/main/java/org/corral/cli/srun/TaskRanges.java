package org.corral.cli.srun;

import java.util.Collection;
import java.util.TreeSet;

/** Task ids as srun's messages list them: "task 3", "tasks 0-1,3". */
final class TaskRanges {

  private TaskRanges() {}

  /** "task N" for one task, "tasks RANGES" for several. */
  static String describe(Collection<Integer> tasks) {
    return (tasks.size() == 1 ? "task " : "tasks ") + ranges(tasks);
  }

  /** Sorted ids with consecutive runs collapsed: "0-1,3". */
  static String ranges(Collection<Integer> tasks) {
    StringBuilder sb = new StringBuilder();
    Integer start = null;
    Integer prev = null;
    for (int t : new TreeSet<>(tasks)) {
      if (prev != null && t == prev + 1) {
        prev = t;
        continue;
      }
      append(sb, start, prev);
      start = t;
      prev = t;
    }
    append(sb, start, prev);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Integer start, Integer end) {
    if (start == null) {
      return;
    }
    if (sb.length() > 0) {
      sb.append(',');
    }
    sb.append(start);
    if (!start.equals(end)) {
      sb.append('-').append(end);
    }
  }
}

package org.corral.ctld.state;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;

/**
 * A job's generic resources as accounting's TRES: {@code gres/gpu=2}, and per type
 * {@code gres/gpu:a100=2} beside it, as Slurm records them (sacct's ReqTRES and AllocTRES).
 */
public final class GresTres {
  private GresTres() {}

  /**
   * How many of a GRES name the job holds (once started) or asks for (while pending): what
   * accounting limits on gres/NAME count.
   */
  public static long count(JobInfo j, String name) {
    return counts(j).getOrDefault("gres/" + name, 0L);
  }

  /** Every gres/NAME and gres/NAME:TYPE the job holds or asks for, with its count. */
  public static Map<String, Long> counts(JobInfo j) {
    Map<String, Long> out = new TreeMap<>();
    String tres = j.getAllocationCount() > 0 ? allocated(j) : requested(j);
    for (String item : tres.split(",")) {
      int eq = item.lastIndexOf('=');
      if (eq > 0) {
        out.put(item.substring(0, eq), Long.parseLong(item.substring(eq + 1)));
      }
    }
    return out;
  }

  /** What it held on all its nodes together. */
  static String allocated(JobInfo j) {
    Map<String, Long> counts = new TreeMap<>();
    for (NodeAllocation a : j.getAllocationList()) {
      for (GresAlloc g : a.getGresList()) {
        add(counts, g.getName(), g.getType(), g.getIndicesCount());
      }
    }
    return format(counts);
  }

  /** What it asked for: per node times its nodes, per job, per task times its tasks. */
  static String requested(JobInfo j) {
    Map<String, Long> counts = new TreeMap<>();
    try {
      int nodes = Math.max(1, j.getMinNodes());
      addAll(counts, GresCount.parseList(j.getTresPerNode()), nodes);
      addAll(counts, GresCount.parseList(j.getTresPerJob()), 1);
      addAll(counts, GresCount.parseList(j.getTresPerTask()), Math.max(1, j.getNumTasks()));
    } catch (IllegalArgumentException e) {
      return ""; // refused at submit
    }
    return format(counts);
  }

  private static void addAll(Map<String, Long> counts, List<GresCount> list, long times) {
    for (GresCount c : list) {
      add(counts, c.name(), c.type(), c.count() * times);
    }
  }

  private static void add(Map<String, Long> counts, String name, String type, long n) {
    counts.merge("gres/" + name, n, Long::sum);
    if (!type.isEmpty()) {
      counts.merge("gres/" + name + ":" + type, n, Long::sum);
    }
  }

  /** Sorted as sacct sorts TRES strings: whole "name=count" items, so gres/gpu:a100=2 before gres/gpu=2. */
  private static String format(Map<String, Long> counts) {
    java.util.List<String> items = new java.util.ArrayList<>();
    counts.forEach((k, v) -> items.add(k + "=" + v));
    items.sort(null);
    return String.join(",", items);
  }
}

package org.corral.protocol;

import java.util.BitSet;

/** CPU lists as the kernel writes them (cpuset.cpus, Cpus_allowed_list) and Slurm shows them (CPU_IDs=): "0-3,8,10-11". */
public final class CpuList {
  private CpuList() {}

  public static String format(BitSet cpus) {
    StringBuilder out = new StringBuilder();
    int start = cpus.nextSetBit(0);
    while (start >= 0) {
      int end = cpus.nextClearBit(start) - 1;
      if (!out.isEmpty()) {
        out.append(',');
      }
      out.append(start);
      if (end > start) {
        out.append('-').append(end);
      }
      start = cpus.nextSetBit(end + 1);
    }
    return out.toString();
  }

  /** Parses a kernel CPU list; blank = none. Throws IllegalArgumentException on anything else. */
  public static BitSet parse(String text) {
    BitSet cpus = new BitSet();
    String t = text.strip();
    if (t.isEmpty()) {
      return cpus;
    }
    for (String part : t.split(",")) {
      int dash = part.indexOf('-');
      try {
        int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
        int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
        if (from < 0 || to < from || to > 65535) {
          throw new IllegalArgumentException("bad CPU range: " + part);
        }
        cpus.set(from, to + 1);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad CPU list: " + text, e);
      }
    }
    return cpus;
  }
}

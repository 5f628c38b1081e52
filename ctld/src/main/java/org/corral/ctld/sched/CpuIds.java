package org.corral.ctld.sched;

import java.util.BitSet;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.corral.protocol.CpuList;
import org.corral.protocol.msg.NodeAllocation;

/**
 * Which of one node's CPUs (0..CPUs-1) a starting job gets. Chosen as the start is accepted and
 * journaled with it, so the node pins the job to them, scontrol -d shows them, and
 * {@code --gres-flags=enforce-binding} can be kept: the CPUs no running job holds (the least
 * held where jobs share CPUs), those gres.conf's Cores= puts near the job's GPUs first, then the
 * lowest. With enforce-binding only the near ones will do.
 */
final class CpuIds {
  private final int[] held; // how many running jobs hold each CPU

  CpuIds(int cpus) {
    this.held = new int[Math.max(1, cpus)];
  }

  /** A running job's CPUs here: its recorded ones, or for an older record its count of the least held. */
  void hold(NodeAllocation a) {
    BitSet ids = recorded(a);
    take(ids.isEmpty() ? choose(a.getCpus(), new BitSet(), false) : ids);
  }

  void take(BitSet ids) {
    ids.stream().filter(i -> i < held.length).forEach(i -> held[i]++);
  }

  /**
   * {@code count} CPUs, near ones first; null when binding is enforced and fewer than that many
   * near CPUs are free (a job with no near CPUs given, no Cores=, is not bound).
   */
  BitSet choose(int count, BitSet near, boolean enforceBinding) {
    IntStream candidates = IntStream.range(0, held.length);
    if (enforceBinding && !near.isEmpty()) {
      candidates = candidates.filter(i -> near.get(i) && held[i] == 0);
    }
    int[] order = candidates.boxed()
        .sorted(Comparator.<Integer>comparingInt(i -> held[i]).thenComparing(i -> near.get(i) ? 0 : 1)
            .thenComparingInt(i -> i))
        .mapToInt(Integer::intValue).toArray();
    int wanted = Math.min(Math.max(1, count), held.length);
    if (order.length < wanted) {
      return null;
    }
    BitSet out = new BitSet();
    for (int k = 0; k < wanted; k++) {
      out.set(order[k]);
    }
    return out;
  }

  private static BitSet recorded(NodeAllocation a) {
    try {
      return CpuList.parse(a.getCpuIds());
    } catch (IllegalArgumentException e) {
      return new BitSet();
    }
  }
}

package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobInfo;

/**
 * {@code scontrol top}'s arithmetic: the set's priorities, highest first, are dealt out again
 * with the listed jobs first (in the order given) and the others after them in their order;
 * each job's Nice moves by what its priority has to change.
 */
final class TopOrder {
  /** Slurm's bounds on Nice (NICE_OFFSET - 3). */
  static final long MAX_NICE = 2147483645L;

  private TopOrder() {}

  /**
   * @param listed the jobs named, in order (each one of {@code set})
   * @param set every pending job of the same user, partition, account and QOS, highest priority first
   */
  static List<Command> niceChanges(List<JobInfo> listed, List<JobInfo> set, long now) {
    Set<Integer> ids = new LinkedHashSet<>();
    listed.forEach(j -> ids.add(j.getJobId()));
    List<JobInfo> order = new ArrayList<>(listed);
    set.stream().filter(j -> !ids.contains(j.getJobId())).forEach(order::add);
    List<Command> out = new ArrayList<>();
    for (int k = 0; k < order.size() && k < set.size(); k++) {
      JobInfo j = order.get(k);
      long before = Integer.toUnsignedLong(j.getPriority());
      long after = Integer.toUnsignedLong(set.get(k).getPriority());
      if (before != after) {
        long nice = Math.max(-MAX_NICE, Math.min(MAX_NICE, j.getNice() + before - after));
        out.add(new Command.UpdateJob(j.getJobId(), now, Map.of("nice", Long.toString(nice))));
      }
    }
    return out;
  }
}

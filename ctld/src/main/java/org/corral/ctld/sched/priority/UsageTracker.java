package org.corral.ctld.sched.priority;

import java.util.HashMap;
import java.util.Map;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;

/**
 * Each user's decayed usage in CPU-seconds, the input of fairshare until accounting supplies
 * associations' usage. At every recalculation the usage so far decays by
 * 2^(-elapsed/PriorityDecayHalfLife) and the CPU-seconds jobs ran since the last one are added
 * (running jobs, and ended ones still in memory). Kept by the scheduler thread only.
 */
public final class UsageTracker {
  private final long halfLifeS;
  private final Map<String, Double> usage = new HashMap<>();
  private long last = -1;

  public UsageTracker(long halfLifeS) {
    this.halfLifeS = halfLifeS;
  }

  /** Brings usage up to {@code now}. */
  public void update(ClusterState s, long now) {
    if (last < 0) {
      last = now;
      return;
    }
    if (now <= last) {
      return;
    }
    if (halfLifeS > 0) {
      double decay = Math.pow(2, -(double) (now - last) / halfLifeS);
      usage.replaceAll((u, v) -> v * decay);
    }
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == JobState.PENDING || j.getStartTime() == 0 || j.getStartTime() > now) {
        continue; // never started (a pending job's start time is only its expected one)
      }
      long from = Math.max(last, j.getStartTime());
      long to = j.getEndTime() > 0 && j.getEndTime() <= now && isOver(j) ? j.getEndTime() : now;
      if (to > from) {
        usage.merge(j.getUserName(), (double) (to - from) * j.getNumCpus(), Double::sum);
      }
    }
    last = now;
  }

  private static boolean isOver(JobInfo j) {
    return j.getState() != JobState.RUNNING
        && j.getState() != JobState.SUSPENDED;
  }

  public Map<String, Double> usage() {
    return Map.copyOf(usage);
  }
}

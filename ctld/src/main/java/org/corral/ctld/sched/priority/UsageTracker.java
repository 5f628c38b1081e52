package org.corral.ctld.sched.priority;

import java.util.HashMap;
import java.util.Map;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;

/**
 * Decayed usage in CPU-seconds, by user (fairshare without associations) and by the account,
 * user and partition jobs ran under (the association tree's usage, see {@link ShareTree}). At every recalculation the usage so far decays by
 * 2^(-elapsed/PriorityDecayHalfLife) and the CPU-seconds jobs ran since the last one are added
 * (running jobs, and ended ones still in memory). Kept by the scheduler thread only.
 */
public final class UsageTracker {
  private final long halfLifeS;
  private final Map<String, Double> usage = new HashMap<>();
  private final Map<JobAssoc, Double> byAssoc = new HashMap<>();
  private long last = -1;

  public UsageTracker(long halfLifeS) {
    this.halfLifeS = halfLifeS;
  }

  /** Takes up usage saved earlier (a restarted controller); it decays from its time on. */
  void restore(UsageFile.Saved saved) {
    usage.putAll(saved.byUser());
    byAssoc.putAll(saved.byAssoc());
    last = saved.time();
  }

  /** The usage now held, as of the last update. */
  UsageFile.Saved saved() {
    return new UsageFile.Saved(last, Map.copyOf(usage), Map.copyOf(byAssoc));
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
      byAssoc.replaceAll((a, v) -> v * decay);
    }
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == JobState.PENDING || j.getStartTime() == 0 || j.getStartTime() > now) {
        continue; // never started (a pending job's start time is only its expected one)
      }
      long from = Math.max(last, j.getStartTime());
      long to = j.getEndTime() > 0 && j.getEndTime() <= now && isOver(j) ? j.getEndTime() : now;
      if (to > from) {
        double cpuSecs = (double) (to - from) * j.getNumCpus();
        usage.merge(j.getUserName(), cpuSecs, Double::sum);
        byAssoc.merge(new JobAssoc(j.getAccount(), j.getUserName(), j.getPartition()), cpuSecs, Double::sum);
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

  /** Decayed CPU-seconds by what the jobs ran under: account, user and partition. */
  public Map<JobAssoc, Double> byAssoc() {
    return Map.copyOf(byAssoc);
  }

  /** The account, user and partition a job ran under (the account "" when accounting was off). */
  public record JobAssoc(String account, String user, String partition) {}
}

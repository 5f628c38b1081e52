package org.corral.ctld.sched.priority;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ObjDoubleConsumer;
import java.util.function.ToDoubleFunction;
import org.corral.ctld.sched.limits.JobTres;
import org.corral.ctld.sched.limits.TimeUsage;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.Billing;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;

/**
 * Decayed usage in billing-seconds (the billing TRES, see TRESBillingWeights; CPUs without), by
 * user (fairshare without associations) and by the account, user and partition jobs ran under
 * (the association tree's usage, see {@link ShareTree}). At every recalculation the usage so far
 * decays by 2^(-elapsed/PriorityDecayHalfLife) and the billing-seconds jobs ran since the last one are added
 * (running jobs, and ended ones still in memory). CPU- and wall-seconds by association and by QOS
 * are kept the same way for the time limits (GrpWall, GrpTRESMins: every TRES of JobTres). Kept by the scheduler
 * thread only. Each job's share counts times its QOS's UsageFactor.
 */
public final class UsageTracker {
  private final long halfLifeS;
  private final Map<String, Double> usage = new HashMap<>();
  private final Map<JobAssoc, Double> byAssoc = new HashMap<>();
  private final Map<JobAssoc, Double> wallByAssoc = new HashMap<>();
  private final Map<JobAssoc, TimeUsage.Used> tresByAssoc = new HashMap<>(); // TRES-seconds (wall: wallByAssoc)
  private final Map<String, TimeUsage.Used> byQos = new HashMap<>();
  private long last = -1;

  public UsageTracker(long halfLifeS) {
    this.halfLifeS = halfLifeS;
  }

  /** Takes up usage saved earlier (a restarted controller); it decays from its time on. */
  void restore(UsageFile.Saved saved) {
    usage.putAll(saved.byUser());
    byAssoc.putAll(saved.byAssoc());
    wallByAssoc.putAll(saved.wallByAssoc());
    byQos.putAll(saved.byQos());
    tresByAssoc.putAll(saved.tresByAssoc());
    last = saved.time();
  }

  /** The usage now held, as of the last update. */
  UsageFile.Saved saved() {
    return new UsageFile.Saved(last, Map.copyOf(usage), Map.copyOf(byAssoc), Map.copyOf(wallByAssoc), Map.copyOf(byQos),
        Map.copyOf(tresByAssoc));
  }

  /** Brings usage up to {@code now}, every QOS's UsageFactor 1. */
  public void update(ClusterState s, long now) {
    update(s, now, q -> 1.0);
  }

  /**
   * Brings usage up to {@code now}: what each job ran since the last update counts times its
   * QOS's UsageFactor ({@code usageFactor} of the QOS name), for fairshare and for the time
   * limits alike, as sacctmgr(1) says.
   */
  public void update(ClusterState s, long now, ToDoubleFunction<String> usageFactor) {
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
      wallByAssoc.replaceAll((a, v) -> v * decay);
      tresByAssoc.replaceAll((a, v) -> v.times(decay));
      byQos.replaceAll((q, v) -> v.times(decay));
    }
    ranSince(s, last, now, (j, ran) -> {
      double secs = ran * usageFactor.applyAsDouble(qosOf(j));
      double billed = secs * Billing.charged(j); // fairshare charges billing (priority_multifactor)
      JobAssoc a = new JobAssoc(j.getAccount(), j.getUserName(), j.getPartition());
      usage.merge(j.getUserName(), billed, Double::sum);
      byAssoc.merge(a, billed, Double::sum);
      TimeUsage.Used used = TimeUsage.Used.of(JobTres.of(j), secs);
      tresByAssoc.merge(a, new TimeUsage.Used(used.tresSecs(), 0), TimeUsage.Used::plus);
      wallByAssoc.merge(a, secs, Double::sum);
      byQos.merge(qosOf(j), used, TimeUsage.Used::plus);
    });
    last = now;
  }

  /** Calls {@code ran} with each job that ran between {@code from} and {@code now} and for how many seconds. */
  private static void ranSince(ClusterState s, long from, long now, ObjDoubleConsumer<JobInfo> ran) {
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == JobState.PENDING || j.getStartTime() == 0 || j.getStartTime() > now) {
        continue; // never started (a pending job's start time is only its expected one)
      }
      long start = Math.max(from, j.getStartTime());
      long end = j.getEndTime() > 0 && j.getEndTime() <= now && isOver(j) ? j.getEndTime() : now;
      if (end > start) {
        ran.accept(j, end - start);
      }
    }
  }

  /**
   * What the time limits count at {@code now}: the usage as of the last update plus what jobs
   * ran since (not yet decayed), so a limit is reached when it is, not at the next recalculation.
   */
  public TimeUsage timeUsage(ClusterState s, long now) {
    return timeUsage(s, now, q -> 1.0);
  }

  /** As {@link #timeUsage(ClusterState, long)}, the jobs since the last update times their QOS's UsageFactor. */
  public TimeUsage timeUsage(ClusterState s, long now, ToDoubleFunction<String> usageFactor) {
    Map<TimeUsage.Owner, TimeUsage.Used> assoc = new HashMap<>();
    tresByAssoc.forEach((a, tres) -> assoc.put(owner(a),
        new TimeUsage.Used(tres.tresSecs(), wallByAssoc.getOrDefault(a, 0.0))));
    Map<String, TimeUsage.Used> qos = new HashMap<>(byQos);
    if (last >= 0) {
      ranSince(s, last, now, (j, ran) -> {
        double secs = ran * usageFactor.applyAsDouble(qosOf(j));
        TimeUsage.Used u = TimeUsage.Used.of(JobTres.of(j), secs);
        assoc.merge(new TimeUsage.Owner(j.getAccount(), j.getUserName(), j.getPartition()), u, TimeUsage.Used::plus);
        qos.merge(qosOf(j), u, TimeUsage.Used::plus);
      });
    }
    return new TimeUsage(assoc, qos);
  }

  private static TimeUsage.Owner owner(JobAssoc a) {
    return new TimeUsage.Owner(a.account(), a.user(), a.partition());
  }

  private static String qosOf(JobInfo j) {
    return j.getQos().isEmpty() ? "normal" : j.getQos();
  }

  private static boolean isOver(JobInfo j) {
    return j.getState() != JobState.RUNNING
        && j.getState() != JobState.SUSPENDED;
  }

  public Map<String, Double> usage() {
    return Map.copyOf(usage);
  }

  /** Decayed billing-seconds by what the jobs ran under: account, user and partition. */
  public Map<JobAssoc, Double> byAssoc() {
    return Map.copyOf(byAssoc);
  }

  /** The account, user and partition a job ran under (the account "" when accounting was off). */
  public record JobAssoc(String account, String user, String partition) {}
}

package org.corral.ctld.sched.priority;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;

/**
 * Decides, before each scheduling pass, which priorities to (re)compute: a new or released
 * job's at once, every pending job's each PriorityCalcPeriod (when usage decays and ages grow).
 * Owned by the scheduler thread.
 */
public final class PriorityPass {
  private final SchedulingConfig cfg;
  private final UsageTracker usage;
  private long lastFull = Long.MIN_VALUE;
  /** Written by the scheduler thread, read by sshare's requests: a reference swap, never waited for. */
  private volatile ShareTree shares = ShareTree.EMPTY;
  private AssocTree sharesOf = AssocTree.NONE;

  private final UsageFile saved; // null: usage is not kept across restarts (tests, the simulator)

  public PriorityPass(SchedulingConfig cfg) {
    this(cfg, null);
  }

  /** @param usageFile where usage is kept across controller restarts (StateSaveLocation), or null */
  public PriorityPass(SchedulingConfig cfg, java.nio.file.Path usageFile) {
    this.cfg = cfg;
    this.usage = new UsageTracker(cfg.decayHalfLifeS());
    this.saved = usageFile == null ? null : new UsageFile(usageFile);
    UsageFile.Saved before = saved == null ? null : saved.load();
    if (before != null) {
      usage.restore(before);
    }
  }

  /** As {@link #recalc(ClusterState, long, AssocTree)} without associations. */
  public Command.SetPriorities recalc(ClusterState s, long now) {
    return recalc(s, now, AssocTree.NONE);
  }

  /**
   * The priorities to set before planning at {@code now}, or null when none are due. With
   * associations ({@code tree} not empty) fairshare comes from the association tree (see
   * {@link ShareTree}), recomputed each PriorityCalcPeriod and when the tree changes, and
   * published for sshare; without, users are ranked as if under one account.
   */
  /** The associations' shares and usage as the last pass computed them (empty without associations). */
  public ShareTree shares() {
    return shares;
  }

  public Command.SetPriorities recalc(ClusterState s, long now, AssocTree tree) {
    boolean full = lastFull == Long.MIN_VALUE || now - lastFull >= cfg.calcPeriodS();
    Set<String> users = new HashSet<>();
    boolean any = false;
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      users.add(j.getUserName());
      any |= JobStates.isPending(j) && !j.hasPriorityFactors();
    }
    if (full) {
      usage.update(s, now, usageFactors(tree));
      lastFull = now;
      if (saved != null) {
        saved.save(usage.saved());
      }
    }
    if (full || tree != sharesOf) {
      shares = ShareTree.build(tree, usage.byAssoc(), !cfg.hasFlag("NO_FAIR_TREE"), s, now);
      sharesOf = tree;
    }
    if (!full && !any) {
      return null;
    }
    boolean weighted = cfg.multifactor() && cfg.weights().fairshare() > 0;
    MultifactorPriority calc;
    if (!shares.isEmpty()) {
      ShareTree t = shares;
      calc = new MultifactorPriority(cfg, s, j -> weighted ? t.factor(j) : 0, qosFactors(tree));
    } else {
      calc = new MultifactorPriority(cfg, s, weighted
          ? FairShare.factors(FairShare.withUsers(users, usage.usage()), !cfg.hasFlag("NO_FAIR_TREE"))
          : Map.of());
    }
    Map<Integer, Command.JobPriority> out = new HashMap<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (JobStates.isPending(j) && (full || !j.hasPriorityFactors())) {
        Command.JobPriority p = calc.of(j, now);
        boolean same = j.hasPriorityFactors() && j.getPriorityFactors().equals(p.factors())
            && (j.getPriority() == p.priority() || j.getPriority() == 0 || j.getAdminPriority());
        if (!same) { // the writer applies only what changed
          out.put(j.getJobId(), p);
        }
      }
    }
    return out.isEmpty() ? null : new Command.SetPriorities(out);
  }

  /** The decayed usage the time limits count, up to {@code now} (see {@link UsageTracker#timeUsage}). */
  public org.corral.ctld.sched.limits.TimeUsage timeUsage(ClusterState s, long now) {
    return usage.timeUsage(s, now, usageFactors(sharesOf));
  }

  /**
   * Each QOS's UsageFactor (sacctmgr's, 1 when unset: the store keeps 0 for unset, so a
   * UsageFactor of 0 counts as 1); 1 for a QOS not in the tree (no accounting).
   */
  static java.util.function.ToDoubleFunction<String> usageFactors(AssocTree tree) {
    return name -> tree.qos(name).map(q -> q.getUsageFactor() > 0 ? q.getUsageFactor() : 1.0).orElse(1.0);
  }

  /** A job's QOS factor: its QOS's Priority over the highest of all QOS (0 when none has one). */
  private static java.util.function.ToDoubleFunction<JobInfo> qosFactors(AssocTree tree) {
    long max = tree.snapshot().getQosList().stream().mapToLong(q -> Integer.toUnsignedLong(q.getPriority()))
        .max().orElse(0);
    if (max == 0) {
      return j -> 0;
    }
    return j -> tree.qos(j.getQos().isEmpty() ? "normal" : j.getQos())
        .map(q -> Integer.toUnsignedLong(q.getPriority()) / (double) max).orElse(0.0);
  }
}

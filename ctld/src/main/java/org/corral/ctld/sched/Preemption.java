package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.corral.common.config.PreemptConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Preemption within one planning pass (preempt.html). When a pending job cannot start now, the
 * running jobs it may preempt are taken away from the pass's profile lowest priority first
 * (partition PriorityTier, then priority, then the youngest) until the job fits; those not
 * needed after all go back, highest priority first, so the fewest and least important are
 * preempted. Their resources go to the preemptor in the profile (nothing else of the pass takes
 * them); it starts once they are gone. preempt/partition_prio: a job preempts jobs of partitions
 * with a lower PriorityTier, as their partition's PreemptMode says; preempt/qos: jobs of the QOS
 * its QOS lists in Preempt=, as their QOS's PreemptMode (or the cluster's) says. Jobs suspended
 * by preemption are resumed as soon as their CPUs are free again, before any pending job that
 * could not have preempted them.
 */
final class Preemption {
  private final ClusterState state;
  private final PreemptConfig cfg;
  private final AssocTree tree;
  private final long now;
  private final Availability profile;
  private final Map<String, PartitionInfo> partitions = new HashMap<>();
  private final List<Command> orders = new ArrayList<>();
  private final Set<Integer> preempted = new HashSet<>();
  private List<JobInfo> running;
  private List<JobInfo> toResume;

  Preemption(ClusterState state, PreemptConfig cfg, AssocTree tree, long now, Availability profile) {
    this.state = state;
    this.cfg = cfg;
    this.tree = tree;
    this.now = now;
    this.profile = profile;
    state.partitions().forEach(p -> partitions.put(p.getName(), p));
  }

  /** The preemptions and resumptions decided: {@link Command.PreemptJob} and {@link Command.SuspendJob}. */
  List<Command> orders() {
    return List.copyOf(orders);
  }

  /**
   * What preempting {@code victim} for {@code preemptor} does (CANCEL, REQUEUE, SUSPEND), or
   * null when it may not preempt it.
   */
  String action(JobInfo preemptor, JobInfo victim) {
    PartitionInfo pp = partitions.get(preemptor.getPartition());
    PartitionInfo vp = partitions.get(victim.getPartition());
    if (!cfg.enabled() || pp == null || vp == null || preemptor.getJobId() == victim.getJobId()) {
      return null;
    }
    String action;
    if (cfg.byQos()) {
      Optional<AcctQos> mine = tree.qos(qos(preemptor));
      if (mine.isEmpty() || !mine.get().getPreemptList().contains(qos(victim))) {
        return null;
      }
      String mode = tree.qos(qos(victim)).map(AcctQos::getPreemptMode).orElse("");
      action = PreemptConfig.action(mode.isEmpty() || mode.equalsIgnoreCase("cluster") ? cfg.mode() : mode);
      if (action.equals("SUSPEND") && pp.getName().equals(vp.getName())) {
        return null; // within one partition Slurm time-slices them (gang), which Corral does not
      }
    } else {
      if (Integer.toUnsignedLong(pp.getPriorityTier()) <= Integer.toUnsignedLong(vp.getPriorityTier())) {
        return null;
      }
      action = PreemptConfig.action(vp.getPreemptMode());
    }
    return action.equals("OFF") ? null : action;
  }

  private static String qos(JobInfo j) {
    return j.getQos().isEmpty() ? "normal" : j.getQos();
  }

  /**
   * For pending {@code j}, which cannot start now on {@code nodes}: preempts what it needs gone.
   * True when it will start once the jobs leaving its nodes (preempted now or before, or
   * completing) are gone: their resources are its own for the rest of the pass.
   */
  boolean makeRoom(JobInfo j, NodeSelector.Candidates nodes, long duration) {
    if (!cfg.enabled()) {
      return false;
    }
    Set<String> names = new HashSet<>();
    nodes.nodes().forEach(n -> names.add(n.getName()));
    List<JobInfo> leaving = new ArrayList<>();
    List<JobInfo> candidates = new ArrayList<>();
    for (JobInfo r : running()) {
      if (preempted.contains(r.getJobId())
          || r.getAllocationList().stream().noneMatch(a -> names.contains(a.getNode()))) {
        continue;
      }
      if (r.getCompleting() || !r.getPreempting().isEmpty()) {
        leaving.add(r);
      } else if (!exempt(r) && action(j, r) != null) { // running, or waiting for its gang turn
        candidates.add(r);
      }
    }
    if (candidates.isEmpty() && leaving.isEmpty()) {
      return false;
    }
    candidates.sort(Comparator.comparingLong((JobInfo r) -> tier(r))
        .thenComparingLong(r -> Integer.toUnsignedLong(r.getPriority()))
        .thenComparing(Comparator.comparingInt(JobInfo::getJobId).reversed()));
    leaving.forEach(profile::vacate);
    List<JobInfo> chosen = new ArrayList<>();
    List<NodeAllocation> alloc = selectNow(j, nodes, duration);
    for (int i = 0; alloc == null && i < candidates.size(); i++) {
      profile.vacate(candidates.get(i));
      chosen.add(candidates.get(i));
      alloc = selectNow(j, nodes, duration);
    }
    if (alloc == null) {
      chosen.forEach(profile::occupy);
      leaving.forEach(profile::occupy);
      return false;
    }
    for (int k = chosen.size() - 1; k >= 0; k--) { // the fewest: give back those not needed
      profile.occupy(chosen.get(k));
      List<NodeAllocation> without = selectNow(j, nodes, duration);
      if (without != null) {
        chosen.remove(k);
        alloc = without;
      } else {
        profile.vacate(chosen.get(k));
      }
    }
    profile.take(alloc, now, now + duration, nodes.tenancy(j));
    for (JobInfo v : chosen) {
      preempted.add(v.getJobId());
      orders.add(order(j, v));
    }
    return true;
  }

  private List<NodeAllocation> selectNow(JobInfo j, NodeSelector.Candidates nodes, long duration) {
    nodes.firstNotFull()[0] = 0; // resources were freed: nodes full before may have room now
    return NodeSelector.select(j, nodes, now, now + duration);
  }

  private Command order(JobInfo preemptor, JobInfo victim) {
    String action = action(preemptor, victim);
    if (action.equals("SUSPEND")) {
      return new Command.SuspendJob(victim.getJobId(), now, false, true);
    }
    long grace = cfg.byQos() ? tree.qos(qos(victim)).map(AcctQos::getGraceTime).orElse(0)
        : partitions.get(victim.getPartition()).getGraceTime();
    return new Command.PreemptJob(victim.getJobId(), now, action, grace > 0 ? now + grace : 0);
  }

  /** PreemptExemptTime: a job that has not run that long yet is not preempted. */
  private boolean exempt(JobInfo r) {
    return cfg.exemptTimeS() > 0 && now - r.getStartTime() < cfg.exemptTimeS();
  }

  private long tier(JobInfo j) {
    PartitionInfo p = partitions.get(j.getPartition());
    return p == null ? 0 : Integer.toUnsignedLong(p.getPriorityTier());
  }

  private List<JobInfo> running() {
    if (running == null) {
      running = new ArrayList<>();
      for (JobRecord r : state.jobs().values()) {
        JobInfo j = r.getInfo();
        if ((j.getState() == JobState.RUNNING || j.getGangSuspended() || j.getCompleting())
            && j.getAllocationCount() > 0) {
          running.add(j);
        }
      }
    }
    return running;
  }

  /**
   * Resumes the jobs preemption suspended whose CPUs are free now, highest priority first,
   * before pending job {@code next} (null: after the queue) unless {@code next} could preempt them.
   */
  void resumeBefore(JobInfo next) {
    if (!cfg.enabled()) {
      return;
    }
    if (toResume == null) {
      toResume = new ArrayList<>();
      for (JobRecord r : state.jobs().values()) {
        if (r.getInfo().getState() == JobState.SUSPENDED && r.getInfo().getPreemptSuspended()) {
          toResume.add(r.getInfo());
        }
      }
      toResume.sort(Comparator.comparingLong((JobInfo r) -> -tier(r))
          .thenComparingLong(r -> -Integer.toUnsignedLong(r.getPriority())).thenComparingInt(JobInfo::getJobId));
    }
    for (Iterator<JobInfo> it = toResume.iterator(); it.hasNext(); ) {
      JobInfo s = it.next();
      if (next != null && action(next, s) != null) {
        continue; // the pending job goes first: it could take these CPUs from it anyway
      }
      it.remove();
      long end = s.getEndTime() == 0 ? now + Availability.UNLIMITED_S : now + s.getEndTime() - s.getSuspendTime();
      List<NodeAllocation> cpus = new ArrayList<>();
      boolean fits = true;
      Tenancy who = Tenancy.of(s, partitions.get(s.getPartition())).alone();
      for (NodeAllocation a : s.getAllocationList()) {
        NodeTimeline t = profile.node(a.getNode());
        fits &= t != null && t.fits(now, end, a.getCpus(), 0, who);
        cpus.add(NodeAllocation.newBuilder().setNode(a.getNode()).setCpus(a.getCpus()).build());
      }
      if (fits) {
        profile.take(cpus, now, end, who);
        orders.add(new Command.SuspendJob(s.getJobId(), now, true, true));
      }
    }
  }
}

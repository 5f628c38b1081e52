package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.ArrayTasks;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;
import org.corral.common.config.PreemptConfig;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.limits.LimitCheck;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.Waiting;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.ReservationInfo;

/**
 * The scheduler: a pure function from a state, a time and the scheduling configuration to a
 * {@link Plan}. Pending jobs go in Slurm's order (partition PriorityTier, priority, submit time,
 * job id). Each starts now if it fits over its whole time limit in the {@link Availability}
 * profile, which holds what running jobs give back and when. With sched/backfill a job that
 * cannot start now is planned at its earliest start within bf_window and its resources are
 * reserved there, so a lower-priority job may start now only if it delays no planned one. With
 * sched/builtin the first job that cannot start blocks the rest of its partition.
 */
public final class Planner {
  static final String NODES_UNAVAILABLE =
      "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions";
  private static final String REQ_NODE_NOT_AVAIL = "ReqNodeNotAvail, UnavailableNodes:";

  private final ClusterState state;
  private final long now;
  private final SchedulingConfig cfg;
  private final Availability profile;
  private final Map<String, NodeSelector.Candidates> candidates = new HashMap<>();
  private final List<Need> failedNow = new ArrayList<>();
  private final List<Integer> cancels = new ArrayList<>();
  private final List<Integer> pastDeadline = new ArrayList<>();
  private final DependencyCheck dependencies;
  private final LimitCheck limits;
  private final LicenseCheck licenses;
  private Map<Integer, Integer> runningTasks;
  private final Map<Need, Boolean> usable = new HashMap<>();
  private final Map<Need, Long> lateEstimates = new HashMap<>();
  private int lateEstimatesVersion = -1;
  private final Map<Need, Long> plannedFrom = new HashMap<>();
  private final List<Need> failedInWindow = new ArrayList<>();
  private final Set<String> blocked = new HashSet<>();
  private final Map<Integer, Integer> plannedPerUser = new HashMap<>();
  private final List<Command.StartJob> starts = new ArrayList<>();
  private CpusHeld cpusHeld; // for --gres-flags=enforce-binding starts, made on first need
  private final Map<Integer, Waiting> waiting = new LinkedHashMap<>();
  private int planned;
  private int backfilled;
  private Preemption preemption;

  private Planner(ClusterState state, long now, SchedulingConfig cfg, LimitCheck limits,
      Map<String, Integer> licenseTotals) {
    this.state = state;
    this.licenses = LicenseCheck.of(state, licenseTotals);
    this.now = now;
    this.cfg = cfg;
    this.profile = Availability.of(state, now);
    this.preemption = new Preemption(state, PreemptConfig.NONE, AssocTree.NONE, now, profile);
    this.dependencies = new DependencyCheck(state, now);
    this.limits = limits;
  }

  public static Plan plan(ClusterState state, long now) {
    return plan(state, now, SchedulingConfig.DEFAULTS);
  }

  public static Plan plan(ClusterState state, long now, SchedulingConfig cfg) {
    return plan(state, now, cfg, AssocTree.NONE, LimitCheck.Enforce.NONE);
  }

  /** The plan with the accounting limits in {@code tree} enforced as {@code enforce} says. */
  public static Plan plan(ClusterState state, long now, SchedulingConfig cfg, AssocTree tree,
      LimitCheck.Enforce enforce) {
    return plan(state, now, cfg, tree, enforce, Map.of());
  }

  /** The same, with the cluster's licenses (slurm.conf Licenses=) counted. */
  public static Plan plan(ClusterState state, long now, SchedulingConfig cfg, AssocTree tree,
      LimitCheck.Enforce enforce, Map<String, Integer> licenseTotals) {
    return plan(state, now, cfg, LimitCheck.of(state, tree, enforce), licenseTotals);
  }

  /** The plan with the accounting limits {@code limits} holds enforced. */
  public static Plan plan(ClusterState state, long now, SchedulingConfig cfg, LimitCheck limits) {
    return plan(state, now, cfg, limits, Map.of());
  }

  /** The plan with the accounting limits {@code limits} holds enforced and the cluster's licenses counted. */
  public static Plan plan(ClusterState state, long now, SchedulingConfig cfg, LimitCheck limits,
      Map<String, Integer> licenseTotals) {
    return plan(state, now, cfg, limits, licenseTotals, PreemptConfig.NONE, AssocTree.NONE);
  }

  /** The same, with preemption as PreemptType says ({@code qos}: the QOS and their Preempt lists). */
  public static Plan plan(ClusterState state, long now, SchedulingConfig cfg, LimitCheck limits,
      Map<String, Integer> licenseTotals, PreemptConfig preempt, AssocTree qos) {
    Planner p = new Planner(state, now, cfg, limits, licenseTotals);
    p.preemption = new Preemption(state, preempt, qos, now, p.profile);
    List<JobInfo> queue = queue(state);
    for (JobInfo j : queue) {
      p.preemption.resumeBefore(j);
      p.consider(j);
    }
    p.preemption.resumeBefore(null);
    return new Plan(List.copyOf(p.starts), p.waiting, queue.size(), p.backfilled, List.copyOf(p.cancels),
        List.copyOf(p.pastDeadline), p.preemption.orders());
  }

  /** Where and when a job would start: now, or at its planned start. */
  public record WillRun(long start, List<NodeAllocation> allocation) {}

  /**
   * Where and when pending job {@code jobId} would start if the jobs ahead of it were planned
   * first (sbatch --test-only); null when it never could.
   */
  public static WillRun willRun(ClusterState state, int jobId, long now, SchedulingConfig cfg) {
    Planner p = new Planner(state, now, cfg, LimitCheck.NONE, Map.of());
    for (JobInfo j : queue(state)) {
      if (j.getJobId() == jobId) {
        return p.startOf(j);
      }
      p.consider(j);
    }
    return null;
  }

  /**
   * As the pass would place the job: in the reservation it named (not before that begins, unless
   * FLEX), else first in the MAGNETIC reservations that admit it, then in the rest of its
   * partition; a later start is the earliest of those.
   */
  private WillRun startOf(JobInfo j) {
    PartitionInfo p = state.partition(j.getPartition()).orElse(null);
    if (p == null || "PartitionConfig".equals(staticReason(j, p, state))
        || "PartitionNodeLimit".equals(staticReason(j, p, state))) {
      return null;
    }
    ReservationInfo resv = null;
    long from = Math.max(now, j.getEligibleTime());
    if (!j.getReservation().isEmpty()) {
      resv = profile.reservations().named(j.getReservation());
      if (resv == null) {
        return null;
      }
      if ("Reservation".equals(ReservationWindows.waitFor(j, resv, now))) {
        from = Math.max(from, resv.getStartTime());
      }
    }
    List<JobInfo> tries = new ArrayList<>();
    List<NodeSelector.Candidates> where = new ArrayList<>();
    if (resv == null && j.getArrayTasks().isEmpty()) {
      for (ReservationInfo r : profile.reservations().magneticFor(j, now)) {
        tries.add(j.toBuilder().setReservation(r.getName()).build());
        where.add(candidates(p, r));
      }
    }
    tries.add(j);
    where.add(candidates(p, resv));
    WillRun best = null;
    for (int i = 0; i < tries.size(); i++) { // starting now: the first that has room
      JobInfo in = tries.get(i);
      long duration = ReservationWindows.duration(in, named(in), from);
      List<NodeAllocation> alloc = NodeSelector.select(in, where.get(i), from, from + duration);
      if (alloc != null) {
        return new WillRun(from, alloc);
      }
    }
    for (int i = 0; i < tries.size(); i++) { // later: the earliest
      JobInfo in = tries.get(i);
      ReservationInfo r = named(in);
      long duration = ReservationWindows.duration(in, r, from);
      long until = r == null ? now + 2 * Availability.UNLIMITED_S : r.getEndTime() - 1;
      long start = NodeSelector.earliestStart(in, where.get(i), from + 1, until, duration);
      if (start >= 0 && (best == null || start < best.start())) {
        best = new WillRun(start, NodeSelector.select(in, where.get(i), start, start + duration));
      }
    }
    return best;
  }

  private ReservationInfo named(JobInfo j) {
    return j.getReservation().isEmpty() ? null : profile.reservations().named(j.getReservation());
  }

  /** Pending jobs in the order Slurm evaluates them. */
  static List<JobInfo> queue(ClusterState state) {
    Map<String, Integer> tiers = new HashMap<>();
    state.partitions().forEach(p -> tiers.put(p.getName(), p.getPriorityTier()));
    List<JobInfo> pending = new ArrayList<>();
    for (JobRecord r : state.jobs().values()) {
      if (JobStates.isPending(r.getInfo())) {
        pending.add(r.getInfo());
      }
    }
    pending.sort(Comparator.comparingInt((JobInfo j) -> -tiers.getOrDefault(j.getPartition(), 0))
        .thenComparingLong(j -> -Integer.toUnsignedLong(j.getPriority()))
        .thenComparingLong(JobInfo::getSubmitTime).thenComparingInt(JobInfo::getJobId));
    return pending;
  }

  private void consider(JobInfo j) {
    if (j.getDeadline() > 0 && !j.getCompleting() && now + Availability.duration(j) > j.getDeadline()) {
      pastDeadline.add(j.getJobId()); // it could not end in time even if it started now
      return;
    }
    if (j.getPriority() == 0 || j.getCompleting()) {
      return; // held (keeps JobHeldUser/JobHeldAdmin), or a requeued run still ending
    }
    if (j.getEligibleTime() > now) {
      waiting.put(j.getJobId(), new Waiting("BeginTime", j.getEligibleTime(), "")); // shown as its start
      return;
    }
    PartitionInfo p = state.partition(j.getPartition()).orElse(null);
    String reason = staticReason(j, p, state);
    if ("DependencyNeverSatisfied".equals(reason) && cfg.params().killInvalidDepend()) {
      cancels.add(j.getJobId());
      return;
    }
    if (reason != null) {
      waiting.put(j.getJobId(), Waiting.because(reason));
      return;
    }
    String limit = limits.blocked(j);
    if (limit != null) {
      waiting.put(j.getJobId(), Waiting.because(limit));
      return;
    }
    if (!licenses.fits(j)) {
      waiting.put(j.getJobId(), Waiting.because("Licenses"));
      return;
    }
    if (!cfg.backfill() && blocked.contains(p.getName())) {
      waiting.put(j.getJobId(), Waiting.because("Priority"));
      return;
    }
    ReservationInfo resv = j.getReservation().isEmpty() ? null : profile.reservations().named(j.getReservation());
    String notYet = ReservationWindows.waitFor(j, resv, now);
    if (notYet != null) {
      waiting.put(j.getJobId(), Waiting.because(notYet));
      return;
    }
    if (startMagnetic(j, p)) {
      return;
    }
    NodeSelector.Candidates nodes = candidates.computeIfAbsent(p.getName() + "\0" + j.getReservation(),
        k -> candidates(p, resv));
    long duration = ReservationWindows.duration(j, resv, now);
    Need need = Need.of(j, duration, nodes.tenancy(j), profile.byUser());
    if (!j.getArrayTasks().isEmpty()) {
      if (startArrayTasks(j, nodes, duration, need)) {
        return;
      }
    } else if (startNow(j, nodes, duration, need, -1)) {
      return;
    } else if (preemption.makeRoom(j, nodes, duration)) {
      blocked.add(p.getName());
      waiting.put(j.getJobId(), Waiting.because("Resources")); // starts once its preempted jobs are gone
      return;
    }
    String why = whyNotNow(j, p, nodes, need);
    why = profile.reservations().reason(j, p.getNodeNamesList(), duration, why);
    Waiting inside = planInMagnetic(j, p, nodes, duration, why);
    waiting.put(j.getJobId(), inside != null ? inside : planLater(j, nodes, duration, need, why));
  }

  /**
   * Why a job that cannot start now waits, as Slurm 22.05's scheduler says it (seen on the
   * reference with drained and down nodes). A job whose -w names nodes that are not up waits on
   * ReqNodeNotAvail with those nodes, and blocks nothing. Otherwise the first job of a partition
   * that cannot start blocks it: with Resources, or with NODES_UNAVAILABLE when too few of its
   * nodes are up. The partition's later jobs wait on Priority, unless too few of their own nodes
   * are up: then on ReqNodeNotAvail with the nodes of theirs that are not.
   */
  private String whyNotNow(JobInfo j, PartitionInfo p, NodeSelector.Candidates nodes, Need need) {
    if (!j.getReqNodes().isEmpty()) {
      Set<String> required = new HashSet<>(Hostlist.expand(j.getReqNodes()));
      List<String> down = nodes.nodes().stream().filter(n -> required.contains(n.getName()) && !usable(n))
          .map(NodeInfo::getName).toList();
      if (!down.isEmpty()) {
        return REQ_NODE_NOT_AVAIL + Hostlist.compress(down);
      }
    }
    boolean first = blocked.add(p.getName());
    if (usable.computeIfAbsent(need.withoutDuration(), k -> NodeSelector.anyUsable(j, nodes))) {
      return first ? "Resources" : "Priority";
    }
    if (first) {
      return NODES_UNAVAILABLE;
    }
    NodeFilter filter = NodeFilter.of(j);
    List<String> down = nodes.nodes().stream().filter(n -> filter.allows(n) && !usable(n))
        .map(NodeInfo::getName).toList();
    return down.isEmpty() ? "Priority" : REQ_NODE_NOT_AVAIL + Hostlist.compress(down);
  }

  /**
   * A job that named no reservation tries the MAGNETIC reservations that admit it first (as
   * the reference placed such a job in one while other nodes were free), as if it had asked for
   * that one; it stays pending outside them (Reservation (null)) when none has room now. Arrays
   * are left to their own reservation, if any.
   */
  private boolean startMagnetic(JobInfo j, PartitionInfo p) {
    if (!j.getReservation().isEmpty() || !j.getArrayTasks().isEmpty()) {
      return false;
    }
    for (ReservationInfo r : profile.reservations().magneticFor(j, now)) {
      JobInfo in = j.toBuilder().setReservation(r.getName()).build();
      NodeSelector.Candidates nodes = candidates.computeIfAbsent(p.getName() + "\0" + r.getName(),
          k -> candidates(p, r));
      long duration = ReservationWindows.duration(in, r, now);
      if (startNow(in, nodes, duration, Need.of(in, duration, nodes.tenancy(in), profile.byUser()), -1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Backfill for a job that named no reservation and cannot start now: planned in the MAGNETIC
   * reservation that admits it and has room the soonest, when that is sooner (within bf_window)
   * than outside them; null to plan it outside. It still waits outside them (Reservation (null))
   * and is drawn in when its time comes.
   */
  private Waiting planInMagnetic(JobInfo j, PartitionInfo p, NodeSelector.Candidates outside, long duration,
      String why) {
    SchedulingConfig.Backfill bf = cfg.params();
    if (!j.getReservation().isEmpty() || !j.getArrayTasks().isEmpty() || !cfg.backfill()
        || planned >= bf.maxJobTest()
        || (bf.maxJobUser() > 0 && plannedPerUser.getOrDefault(j.getUserId(), 0) >= bf.maxJobUser())) {
      return null;
    }
    List<ReservationInfo> magnetic = profile.reservations().magneticFor(j, now);
    if (magnetic.isEmpty()) {
      return null;
    }
    long latest = now + bf.windowMin() * 60L;
    long best = -1;
    JobInfo bestJob = null;
    NodeSelector.Candidates bestNodes = null;
    long bestDuration = 0;
    for (ReservationInfo r : magnetic) {
      JobInfo in = j.toBuilder().setReservation(r.getName()).build();
      NodeSelector.Candidates nodes = candidates.computeIfAbsent(p.getName() + "\0" + r.getName(),
          k -> candidates(p, r));
      long d = ReservationWindows.duration(in, r, now);
      long start = NodeSelector.earliestStart(in, nodes, now + 1, Math.min(latest, r.getEndTime() - 1), d);
      if (start >= 0 && (best < 0 || start < best)) {
        best = start;
        bestJob = in;
        bestNodes = nodes;
        bestDuration = d;
      }
    }
    if (best < 0) {
      return null;
    }
    long out = NodeSelector.earliestStart(j, outside, now + 1, latest, duration);
    if (out >= 0 && out <= best) {
      return null;
    }
    List<NodeAllocation> alloc = NodeSelector.select(bestJob, bestNodes, best, best + bestDuration);
    if (alloc == null) {
      return null;
    }
    planned++;
    plannedPerUser.merge(j.getUserId(), 1, Integer::sum);
    profile.take(alloc, best, best + bestDuration, bestNodes.tenancy(bestJob));
    return new Waiting(why, best, Hostlist.compress(alloc.stream().map(NodeAllocation::getNode).toList()));
  }

  /**
   * The allocation of an enforce-binding job with GPUs whose near CPUs are free now, its CPUs
   * among them; null when a node has none. Jobs started earlier in this plan hold theirs.
   */
  private List<NodeAllocation> bound(JobInfo j, List<NodeAllocation> alloc) {
    if (cpusHeld == null) {
      cpusHeld = CpusHeld.of(state);
    }
    List<NodeAllocation> placed = cpusHeld.place(alloc, j, node -> {
      List<org.corral.protocol.msg.GresAlloc> held = state.nodes().get(node).getGresUsedList();
      for (Command.StartJob st : starts) {
        for (NodeAllocation a : st.allocation()) {
          if (a.getNode().equals(node)) {
            held = org.corral.protocol.Gres.plus(held, a.getGresList(), 1);
          }
        }
      }
      return held;
    });
    if (placed != null) {
      cpusHeld.take(placed);
    }
    return placed;
  }

  /** Starts the job (or array task) now if it fits over its whole time limit. */
  private boolean startNow(JobInfo j, NodeSelector.Candidates nodes, long duration, Need need, int arrayTask) {
    if (failedNow.stream().anyMatch(need::atLeast)) {
      return false;
    }
    List<NodeAllocation> alloc = NodeSelector.select(j, nodes, now, now + duration);
    if (alloc == null) {
      remember(failedNow, need);
      return false;
    }
    if (j.getGresFlags().equals("enforce-binding")) {
      alloc = bound(j, alloc);
      if (alloc == null) {
        return false; // no free GPUs with free CPUs near them: it waits (PlanCheck makes sure)
      }
    }
    profile.take(alloc, now, now + duration, nodes.tenancy(j));
    starts.add(new Command.StartJob(j.getJobId(), now, alloc, arrayTask, j.getReservation()));
    limits.started(j);
    licenses.started(j);
    if (planned > 0) {
      backfilled++; // started ahead of a job planned for later
    }
    return true;
  }

  /**
   * Starts an array's pending tasks in order while they fit and its throttle allows; true when
   * nothing is left to wait (all started, or the throttle holds the rest: JobArrayTaskLimit).
   */
  private boolean startArrayTasks(JobInfo array, NodeSelector.Candidates nodes, long duration, Need need) {
    int running = runningTasks().getOrDefault(array.getArrayJobId(), 0);
    int throttle = array.getArrayThrottle();
    for (int[] range : ArrayTasks.fromString(array.getArrayTasks()).ranges()) {
      for (int task = range[0]; task <= range[1]; task++) {
        if (throttle > 0 && running >= throttle) {
          waiting.put(array.getJobId(), Waiting.because("JobArrayTaskLimit"));
          return true;
        }
        String limit = limits.blocked(array);
        if (limit != null) {
          waiting.put(array.getJobId(), Waiting.because(limit));
          return true;
        }
        if (!licenses.fits(array)) {
          waiting.put(array.getJobId(), Waiting.because("Licenses"));
          return true;
        }
        if (!startNow(array, nodes, duration, need, task)) {
          return false;
        }
        running++;
        runningTasks.put(array.getArrayJobId(), running);
      }
    }
    return true;
  }

  /** How many tasks of each array hold resources now (started in this pass included). */
  private Map<Integer, Integer> runningTasks() {
    if (runningTasks == null) {
      runningTasks = new HashMap<>();
      for (JobRecord r : state.jobs().values()) {
        JobInfo j = r.getInfo();
        if (j.getArrayJobId() != 0 && j.getArrayTasks().isEmpty() && JobStates.holdsResources(j)) {
          runningTasks.merge(j.getArrayJobId(), 1, Integer::sum);
        }
      }
    }
    return runningTasks;
  }

  /** Backfill: the job's earliest start within bf_window, its resources reserved there. */
  private Waiting planLater(JobInfo j, NodeSelector.Candidates nodes, long duration, Need need, String why) {
    SchedulingConfig.Backfill bf = cfg.params();
    if (!cfg.backfill() || planned >= bf.maxJobTest()
        || (bf.maxJobUser() > 0 && plannedPerUser.getOrDefault(j.getUserId(), 0) >= bf.maxJobUser())) {
      return Waiting.because(why);
    }
    planned++;
    plannedPerUser.merge(j.getUserId(), 1, Integer::sum);
    long from = plannedFrom.getOrDefault(need, now + 1);
    long latest = now + bf.windowMin() * 60L;
    boolean hopeless = from < 0 || failedInWindow.stream().anyMatch(need::atLeast);
    long start = hopeless ? -1 : NodeSelector.earliestStart(j, nodes, from, latest, duration);
    if (start < 0 || start > latest) {
      if (!hopeless) {
        remember(failedInWindow, need);
      }
      // Beyond bf_window: an estimate (as squeue --start shows it) but nothing reserved.
      plannedFrom.put(need, -1L);
      if (lateEstimatesVersion != profile.version()) {
        lateEstimates.clear();
        lateEstimatesVersion = profile.version();
      }
      long late = lateEstimates.computeIfAbsent(need.withoutDuration(),
          k -> NodeSelector.lateEstimate(j, nodes, latest));
      return new Waiting(why, Math.max(0, late), "");
    }
    boolean reserve = !limits.noReserve(j); // QOS Flags=NoReserve: planned, nothing held for it
    if (reserve) {
      plannedFrom.put(need, start);
    }
    List<NodeAllocation> alloc = previousReservation(j, nodes, start, duration);
    if (alloc != null) {
      start = j.getStartTime();
    } else {
      alloc = NodeSelector.select(j, nodes, start, start + duration);
    }
    if (alloc == null) {
      return Waiting.because(why);
    }
    if (reserve) {
      profile.take(alloc, start, start + duration, nodes.tenancy(j));
    }
    return new Waiting(why, start, Hostlist.compress(alloc.stream().map(NodeAllocation::getNode).toList()));
  }

  /**
   * The nodes the last pass reserved for the job, if they still hold it at the time planned
   * then and nothing earlier was found. Keeping them stops a job that started since (placed
   * around that reservation) from moving a planned job onto other nodes, where it would push
   * a lower-priority job's reservation later.
   */
  private List<NodeAllocation> previousReservation(JobInfo j, NodeSelector.Candidates nodes, long earliest,
      long duration) {
    long before = j.getStartTime();
    if (j.getSchedNodes().isEmpty() || before <= now || (earliest >= 0 && earliest < before)) {
      return null;
    }
    JobInfo same = j.toBuilder().setReqNodes(j.getSchedNodes()).build();
    return NodeSelector.select(same, nodes, before, before + duration);
  }

  /** Keeps a bounded list of needs that could not be met, most recent last. */
  private static void remember(List<Need> failed, Need need) {
    if (failed.size() == 64) {
      failed.remove(0);
    }
    failed.add(need);
  }

  private NodeSelector.Candidates candidates(PartitionInfo p) {
    return candidates(p, null);
  }

  /** The partition's nodes for a job outside reservations, or those of its reservation {@code resv}. */
  private NodeSelector.Candidates candidates(PartitionInfo p, ReservationInfo resv) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (String name : p.getNodeNamesList()) {
      state.node(name).ifPresent(nodes::add);
    }
    nodes.sort(Comparator.comparingInt(NodeInfo::getWeight)); // stable: keeps config order
    if (resv != null) {
      return NodeSelector.Candidates.of(ReservationWindows.nodesFor(resv, nodes), profile.forReservation(resv.getName()),
          p.getOversubscribe());
    }
    return NodeSelector.Candidates.of(nodes, profile, p.getOversubscribe());
  }

  /** Why a job cannot start whatever the nodes' load, or null. */
  private String staticReason(JobInfo j, PartitionInfo p, ClusterState state) {
    if (p == null) {
      return "BadConstraints";
    }
    switch (dependencies.check(j)) {
      case WAITING -> { return "Dependency"; }
      case NEVER -> { return "DependencyNeverSatisfied"; }
      case SATISFIED -> { }
    }
    if (p.getState().equals("DOWN") || p.getState().equals("DRAIN")) {
      return "PartitionDown";
    }
    if (p.getState().equals("INACTIVE")) {
      return "PartitionInactive";
    }
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    long max = Integer.toUnsignedLong(p.getMaxTimeMin());
    if (max != SlurmDuration.INFINITE && (limit == SlurmDuration.INFINITE || limit > max)) {
      return "PartitionTimeLimit";
    }
    int cpusPerNode = NodeSelector.cpusPerNode(j, Math.max(1, j.getMinNodes()));
    boolean anyBigEnough = p.getNodeNamesList().stream().map(state::node)
        .anyMatch(n -> n.isPresent() && n.get().getCpus() >= cpusPerNode);
    if (!anyBigEnough) {
      return "PartitionConfig";
    }
    long maxNodes = Integer.toUnsignedLong(p.getMaxNodes());
    if (j.getMinNodes() > p.getNodeNamesCount()
        || (maxNodes != SlurmDuration.INFINITE && j.getMinNodes() > maxNodes)) {
      return "PartitionNodeLimit";
    }
    return null;
  }

  static boolean usable(NodeInfo n) {
    return n.getBaseState() == NodeBaseState.NODE_IDLE && !n.getDrain() && !n.getFail() && !n.getNotResponding();
  }

  /**
   * What a job needs per node and for how long. Jobs needing the same fare alike within a pass:
   * the next one's earliest start is no earlier than the last one's. And a job needing at least
   * as much as one that could not start now, or within bf_window, cannot either (a pass only
   * ever takes resources), so its search is skipped.
   */
  private record Need(String partition, String nodeFilter, boolean exclusive, boolean packed, int nodes,
      int tasks, int cpusPerNode, long memPerCpu, long memPerNode, long duration, String gres, String tenancy) {
    /** {@code byUser}: the pass tracks whose jobs hold nodes, so jobs of different users fare differently. */
    static Need of(JobInfo j, long duration, Tenancy who, boolean byUser) {
      int nodes = Math.max(1, j.getMinNodes());
      boolean packed = NodeSelector.packed(j, nodes);
      String tenancy = who.shareLimit() + (byUser ? "\0" + who.userMark() : "");
      return new Need(j.getPartition() + "\0" + j.getReservation(), j.getReqNodes() + "\0" + j.getExcNodes() + "\0" + j.getFeatures(),
          j.getExclusive(), packed, nodes, Math.max(1, j.getNumTasks()), NodeSelector.cpusPerNode(j, nodes),
          j.getMemPerCpuMb(), j.getMemPerNodeMb(), duration, gres(j), tenancy);
    }

    /** The job's generic resource requests: jobs compare only with jobs asking the same. */
    private static String gres(JobInfo j) {
      return GresNeed.of(j).isEmpty() ? "" : j.getTresPerNode() + "\0" + j.getTresPerJob() + "\0"
          + j.getTresPerTask() + "\0" + j.getCpusPerTres() + "\0" + j.getMemPerTres();
    }

    Need withoutDuration() {
      return new Need(partition, nodeFilter, exclusive, packed, nodes, tasks, cpusPerNode, memPerCpu, memPerNode, 0,
          gres, tenancy);
    }

    boolean atLeast(Need o) {
      return partition.equals(o.partition) && nodeFilter.equals(o.nodeFilter) && exclusive == o.exclusive
          && gres.equals(o.gres) && tenancy.equals(o.tenancy)
          && packed == o.packed
          && (packed ? nodes == o.nodes && tasks >= o.tasks : nodes >= o.nodes)
          && cpusPerNode >= o.cpusPerNode && memPerCpu >= o.memPerCpu && memPerNode >= o.memPerNode
          && (memPerNode == 0) == (o.memPerNode == 0) && duration >= o.duration;
    }
  }
}

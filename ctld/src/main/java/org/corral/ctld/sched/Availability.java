package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmDuration;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * What every usable node has free from now on, as the planner sees it during one pass: running
 * jobs give their resources back at their time limit, and each job the pass starts or plans
 * takes its share for its time limit. Backfill asks it whether a job fits over a span, so a job
 * started early never takes what a higher-priority job was promised.
 */
final class Availability {
  /** How long a job without a time limit is assumed to run (Slurm plans with a year). */
  static final long UNLIMITED_S = 365L * 86400;

  private final long now;
  private final Map<String, NodeTimeline> nodes;
  private int version; // counts changes, so answers computed from the profile can be reused until the next
  private final Pass pass;

  /** What one pass shares: the state, its reservations, every profile made, what was taken. */
  private record Pass(ClusterState state, ReservationWindows windows, List<Availability> profiles,
      Map<String, Availability> views, List<Taken> taken, boolean byUser, List<JobInfo> holding) {}

  private record Taken(List<NodeAllocation> alloc, long from, long to, Tenancy who, Availability origin) {}

  /** For the view of a core reservation (CoreCnt=): that reservation; otherwise null. */
  private org.corral.protocol.msg.ReservationInfo cores;

  private Availability(long now, Map<String, NodeTimeline> nodes, Pass pass) {
    this.now = now;
    this.nodes = nodes;
    this.pass = pass;
    pass.profiles().add(this);
  }

  /** The profile for jobs outside reservations: every reservation's nodes are taken over its window. */
  static Availability of(ClusterState state, long now) {
    ReservationWindows windows = ReservationWindows.of(state, now);
    // One pass over every job the controller holds: whose jobs hold a node matters only once
    // some job keeps other users off its nodes; the jobs holding nodes, for each profile made.
    boolean byUser = false;
    List<JobInfo> holding = new ArrayList<>();
    for (JobRecord r : state.jobs().values()) {
      JobInfo j = r.getInfo();
      byUser |= j.getExclusiveUser();
      if (JobStates.holdsResources(j) && j.getAllocationCount() > 0) {
        holding.add(j);
      }
    }
    Pass pass = new Pass(state, windows, new ArrayList<>(), new HashMap<>(), new ArrayList<>(), byUser, holding);
    Availability av = new Availability(now, timelines(state, now, byUser, holding), pass);
    windows.block(av.nodes, state, null);
    return av;
  }

  ReservationWindows reservations() {
    return pass.windows();
  }

  /**
   * The profile for jobs in reservation {@code name}: its nodes free for them over its window,
   * other reservations still blocked; what the pass took so far is taken there too, and what
   * any profile takes later reaches all of them.
   */
  Availability forReservation(String name) {
    Availability v = pass.views().get(name);
    if (v == null) {
      v = new Availability(now, timelines(pass.state(), now, pass.byUser(), pass.holding()), pass);
      pass.windows().block(v.nodes, pass.state(), name);
      org.corral.protocol.msg.ReservationInfo r = pass.windows().named(name);
      if (r != null && r.getNodeCoresCount() > 0 && r.getNodeCoresCount() == r.getNodeNamesCount()) {
        v.cores = r;
      }
      for (Taken t : pass.taken()) {
        v.takeHere(t.alloc(), t.from(), t.to(), t.who(), t.origin());
      }
      pass.views().put(name, v);
    }
    return v;
  }

  /** @param holding the jobs holding resources, with an allocation */
  private static Map<String, NodeTimeline> timelines(ClusterState state, long now, boolean byUser,
      List<JobInfo> holding) {
    Map<String, NodeTimeline> nodes = new HashMap<>();
    for (NodeInfo n : state.nodes().values()) {
      if (Planner.usable(n)) {
        NodeTimeline t = new NodeTimeline(now, n.getCpus(), n.getCpus() - n.getAllocCpus(),
            n.getRealMemoryMb() - n.getAllocMemMb(), n.getRunningJobs());
        if (n.getGresSlotsCount() > 0) {
          GresUnits units = GresUnits.of(n);
          t.gres(units, units.bits(n.getGresUsedList()));
        }
        if (byUser) {
          t.trackUsers();
        }
        nodes.put(n.getName(), t);
      }
    }
    for (JobInfo j : holding) {
      long end = releaseTime(j, now);
      // a job waiting for its gang turn keeps its CPUs, as a running one does
      boolean suspended = j.getState() == JobState.SUSPENDED && !j.getGangSuspended();
      for (NodeAllocation a : j.getAllocationList()) {
        NodeTimeline t = nodes.get(a.getNode());
        if (t == null) {
          continue;
        }
        if (suspended) { // its CPUs are free already and it blocks no exclusive job; its memory stays taken
          t.vacate(now, end, 0, 0, List.of());
          t.release(end, 0, a.getMemMb(), a.getGresList());
        } else {
          t.holding(end, a.getCpus(), a.getMemMb(), a.getGresList(), tenancy(state, j));
        }
      }
    }
    return nodes;
  }

  /**
   * When a job's resources come back: at its time limit; a job past it or completing, in a
   * moment; one without a limit, a year after it started.
   */
  static long releaseTime(JobInfo j, long now) {
    if (j.getCompleting() || JobStates.isFinished(j)) {
      return now + 1;
    }
    if (j.getEndTime() == 0) {
      return Math.max(now + 1, j.getStartTime() + UNLIMITED_S);
    }
    if (j.getState() == JobState.SUSPENDED) { // its limit stands still: what was left when it stopped
      return Math.max(now + 1, now + j.getEndTime() - j.getSuspendTime());
    }
    return Math.max(now + 1, j.getEndTime());
  }

  private static Tenancy tenancy(ClusterState state, JobInfo j) {
    return Tenancy.of(j, state.partition(j.getPartition()).orElse(null));
  }

  /** A job's planned run time in seconds. */
  static long duration(JobInfo j) {
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    return limit == SlurmDuration.INFINITE ? UNLIMITED_S : Math.max(60, limit * 60);
  }

  long now() {
    return now;
  }

  /** Whether whose jobs hold a node is tracked in this pass (some job keeps other users off its nodes). */
  boolean byUser() {
    return pass.byUser();
  }

  int version() {
    return version;
  }

  /** The node's timeline, or null when the node cannot take work (down, drained, not responding). */
  NodeTimeline node(String name) {
    return nodes.get(name);
  }

  /** The job gets these resources over [from, to), holding its nodes as {@code who} says. */
  void take(List<NodeAllocation> alloc, long from, long to, Tenancy who) {
    if (!pass.views().isEmpty() || !pass.windows().isEmpty()) {
      pass.taken().add(new Taken(alloc, from, to, who, this)); // for views made later
    }
    for (Availability a : pass.profiles()) {
      a.takeHere(alloc, from, to, who, this);
    }
  }

  /**
   * Takes what a job planned through profile {@code origin} gets. In a core reservation's view, a
   * job from another profile is outside it: within the window it holds CPUs of the nodes' rest,
   * which the view has taken already, so there it costs the reservation's jobs no CPUs.
   */
  private void takeHere(List<NodeAllocation> alloc, long from, long to, Tenancy who, Availability origin) {
    version++;
    for (NodeAllocation a : alloc) {
      NodeTimeline t = nodes.get(a.getNode());
      if (t != null) {
        t.reserve(from, to, a.getCpus(), a.getMemMb(), a.getGresList(), who);
        int i = cores == null || origin == this ? -1 : cores.getNodeNamesList().indexOf(a.getNode());
        long wFrom = Math.max(from, Math.max(now, i < 0 ? 0 : cores.getStartTime()));
        long wTo = i < 0 ? 0 : Math.min(to, cores.getEndTime());
        if (i >= 0 && wFrom < wTo && t.totalCpus() > cores.getNodeCores(i)) {
          t.vacate(wFrom, wTo, a.getCpus(), 0, List.of());
        }
      }
    }
  }

  /** Preemption: a running job's resources free from now on until its end, in every profile of the pass. */
  void vacate(JobInfo j) {
    holdAgain(j, false);
  }

  /** Undoes {@link #vacate}: the job holds its resources again. */
  void occupy(JobInfo j) {
    holdAgain(j, true);
  }

  private void holdAgain(JobInfo j, boolean hold) {
    long end = releaseTime(j, now);
    Tenancy who = tenancy(pass.state(), j);
    for (Availability a : pass.profiles()) {
      a.version++;
      for (NodeAllocation x : j.getAllocationList()) {
        NodeTimeline t = a.nodes.get(x.getNode());
        if (t != null && hold) {
          t.reserve(now, end, x.getCpus(), x.getMemMb(), x.getGresList(), who);
        } else if (t != null) {
          t.vacate(now, end, x.getCpus(), x.getMemMb(), x.getGresList(), who);
        }
      }
    }
  }
}

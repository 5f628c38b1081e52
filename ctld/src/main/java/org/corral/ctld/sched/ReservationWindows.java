package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.Hostlist;
import org.corral.common.ReservationFlags;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.ReservationInfo;

/**
 * The advance reservations as one scheduling pass sees them. A reservation's nodes are taken
 * whole (a core reservation: its CPUs on them) over its window for every job outside it, so such a job neither starts there while it is
 * active nor is backfilled there when its time limit would run into an upcoming window. Jobs in
 * the reservation see its nodes without that block (see {@link Availability#forReservation}).
 */
public final class ReservationWindows {
  static final String MAINTENANCE = "ReqNodeNotAvail, Reserved for maintenance";
  static final String RESERVED_FOR_OTHERS = "ReqNodeNotAvail, May be reserved for other job";

  private final List<ReservationInfo> all;
  private final long now;

  private ReservationWindows(List<ReservationInfo> all, long now) {
    this.all = all;
    this.now = now;
  }

  public static ReservationWindows of(ClusterState s, long now) {
    return new ReservationWindows(s.reservations().all(), now);
  }

  /** Whether a reservation other than {@code self} shares a node and some time with [start, end). */
  public static boolean overlapping(List<ReservationInfo> all, List<String> nodes, long start, long end,
      String self) {
    for (ReservationInfo r : all) {
      if (!r.getName().equals(self) && r.getStartTime() < end && start < r.getEndTime()
          && r.getNodeNamesList().stream().anyMatch(nodes::contains)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the reservation holds its nodes now. */
  public static boolean active(ReservationInfo r, long now) {
    return r.getStartTime() <= now && now < r.getEndTime();
  }

  public static boolean has(ReservationInfo r, String flag) {
    return r.getFlagsList().contains(flag);
  }

  /** Which nodes an active reservation holds now, MAINT ones apart: how nodes are listed (RESERVED, MAINT). */
  public record NodeMarks(Set<String> reserved, Set<String> maint) {
    public static NodeMarks of(ClusterState s, long now) {
      Set<String> reserved = new HashSet<>();
      Set<String> maint = new HashSet<>();
      for (ReservationInfo r : s.reservations().all()) {
        if (active(r, now)) {
          reserved.addAll(r.getNodeNamesList());
          if (has(r, ReservationFlags.MAINT)) {
            maint.addAll(r.getNodeNamesList());
          }
        }
      }
      return new NodeMarks(reserved, maint);
    }

    public NodeInfo mark(NodeInfo n) {
      boolean r = reserved.contains(n.getName());
      boolean m = maint.contains(n.getName());
      return r || m ? n.toBuilder().setReserved(r).setMaint(m).build() : n;
    }
  }

  boolean isEmpty() {
    return all.isEmpty();
  }

  ReservationInfo named(String name) {
    for (ReservationInfo r : all) {
      if (r.getName().equals(name)) {
        return r;
      }
    }
    return null;
  }

  /**
   * The MAGNETIC reservations, in creation order, a job that named none may be drawn into now:
   * they admit its user and account and hold their nodes now (FLEX: or lend it others).
   */
  List<ReservationInfo> magneticFor(JobInfo j, long now) {
    List<ReservationInfo> out = new ArrayList<>();
    for (ReservationInfo r : all) {
      if (has(r, ReservationFlags.MAGNETIC) && r.getEndTime() > now && ReservationAccess.allows(r, j.getUserName(), j.getAccount())
          && (r.getStartTime() <= now || has(r, ReservationFlags.FLEX))) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Why a job in a reservation cannot be placed at all yet: its reservation is gone
   * (ReservationDeleted) or has not begun (Reservation, unless FLEX); null when it may be.
   */
  static String waitFor(JobInfo j, ReservationInfo r, long now) {
    if (j.getReservation().isEmpty()) {
      return null;
    }
    if (r == null) {
      return "ReservationDeleted";
    }
    return r.getStartTime() > now && !has(r, ReservationFlags.FLEX) ? "Reservation" : null;
  }

  /**
   * How long a job holds its nodes as planned: its time limit, but no later than the end of its
   * reservation, where it is ended (ResvOverRun=0).
   */
  static long duration(JobInfo j, ReservationInfo r, long now) {
    long limit = Availability.duration(j);
    return r == null ? limit : Math.max(1, Math.min(limit, r.getEndTime() - now));
  }

  /**
   * Takes every reservation's nodes whole over its window, but {@code except}'s (null: none). A
   * core reservation (CoreCnt=) takes only its CPUs on each node, and no memory, so jobs outside
   * it keep the rest; for {@code except}'s own jobs such a node offers just its reserved CPUs
   * over the window (jobs outside it that hold CPUs there then are counted against the rest).
   */
  void block(Map<String, NodeTimeline> timelines, ClusterState s, String except) {
    for (ReservationInfo r : all) {
      boolean own = r.getName().equals(except);
      boolean byCores = r.getNodeCoresCount() == r.getNodeNamesCount() && r.getNodeCoresCount() > 0;
      if (own && !byCores || r.getEndTime() <= now) {
        continue;
      }
      long from = Math.max(now, r.getStartTime());
      for (int i = 0; i < r.getNodeNamesCount(); i++) {
        String name = r.getNodeNames(i);
        NodeTimeline t = timelines.get(name);
        NodeInfo n = s.nodes().get(name);
        if (t == null || n == null) {
          continue;
        }
        if (!byCores) {
          t.reserve(from, r.getEndTime(), t.totalCpus(), n.getRealMemoryMb());
        } else if (!own) {
          t.reserve(from, r.getEndTime(), Math.min(t.totalCpus(), r.getNodeCores(i)), 0);
        } else if (t.totalCpus() > r.getNodeCores(i)) {
          confine(t, s, r, name, from);
          t.reserve(from, r.getEndTime(), t.totalCpus() - r.getNodeCores(i), 0);
        }
      }
    }
  }

  /** Gives back, over {@code r}'s window, the CPUs jobs outside it hold on node {@code name}. */
  private void confine(NodeTimeline t, ClusterState s, ReservationInfo r, String name, long from) {
    for (JobRecord rec : s.jobs().values()) {
      JobInfo j = rec.getInfo();
      if (!JobStates.holdsResources(j) || r.getName().equals(j.getReservation())
          || j.getState() == JobState.SUSPENDED && !j.getGangSuspended()) {
        continue;
      }
      long to = Math.min(r.getEndTime(), Availability.releaseTime(j, now));
      for (NodeAllocation a : j.getAllocationList()) {
        if (a.getNode().equals(name) && from < to) {
          t.vacate(from, to, a.getCpus(), 0, List.of());
        }
      }
    }
  }

  /**
   * The nodes a job in reservation {@code r} may have, in the partition's order: the
   * reservation's own, then (FLEX) the partition's others.
   */
  static List<NodeInfo> nodesFor(ReservationInfo r, List<NodeInfo> partitionNodes) {
    Set<String> own = new HashSet<>(r.getNodeNamesList());
    List<NodeInfo> out = new ArrayList<>();
    for (NodeInfo n : partitionNodes) {
      if (own.contains(n.getName())) {
        out.add(n);
      }
    }
    if (has(r, ReservationFlags.FLEX)) {
      for (NodeInfo n : partitionNodes) {
        if (!own.contains(n.getName())) {
          out.add(n);
        }
      }
    }
    return out;
  }

  /**
   * Slurm's reason for a job outside any reservation that could not start when reservations
   * hold some of its partition's nodes over its run: maintenance, or its named nodes reserved,
   * or too few nodes left (as for down nodes); otherwise {@code why} stands.
   */
  String reason(JobInfo j, List<String> partitionNodes, long duration, String why) {
    if (!j.getReservation().isEmpty() || !(why.equals("Resources") || why.equals(Planner.NODES_UNAVAILABLE))) {
      return why;
    }
    Set<String> reserved = new HashSet<>();
    boolean maint = false;
    for (ReservationInfo r : all) {
      if (r.getStartTime() < now + duration && now < r.getEndTime()) {
        for (String n : r.getNodeNamesList()) {
          if (partitionNodes.contains(n)) {
            reserved.add(n);
            maint |= has(r, ReservationFlags.MAINT) && active(r, now);
          }
        }
      }
    }
    if (reserved.isEmpty()) {
      return why;
    }
    if (maint) {
      return MAINTENANCE;
    }
    if (!j.getReqNodes().isEmpty() && Hostlist.expand(j.getReqNodes()).stream().anyMatch(reserved::contains)) {
      return RESERVED_FOR_OTHERS;
    }
    return partitionNodes.size() - reserved.size() < Math.max(1, j.getMinNodes()) ? Planner.NODES_UNAVAILABLE : why;
  }
}

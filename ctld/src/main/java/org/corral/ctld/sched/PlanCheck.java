package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.ArrayTasks;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.Waiting;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * Re-checks a plan made on an older state against the newest one (on the writer thread), so a
 * job that was cancelled or a node that went down meanwhile is never started or used.
 */
public final class PlanCheck {
  private PlanCheck() {}

  /** The plan's starts that still hold, and the reasons that differ from those recorded. */
  public static List<Command> accept(ClusterState s, Plan plan, long now) {
    List<Command> out = new ArrayList<>();
    NodesNow nodes = new NodesNow(s, now);
    Map<String, List<GresAlloc>> gresUsed = new HashMap<>(); // node -> generic resources this plan took
    Map<Integer, ArrayTasks> arraysLeft = new HashMap<>();
    int nextId = s.nextJobId();
    for (Command.StartJob start : plan.starts()) {
      JobRecord r = s.jobs().get(start.jobId());
      if (r == null || !JobStates.isSchedulable(r.getInfo()) || r.getInfo().getPriority() == 0) {
        continue;
      }
      ArrayTasks left = null;
      if (start.arrayTask() >= 0) {
        left = arraysLeft.computeIfAbsent(start.jobId(), id -> ArrayTasks.fromString(r.getInfo().getArrayTasks()));
        if (!left.contains(start.arrayTask())) {
          continue;
        }
      }
      Tenancy who = nodes.tenancy(r.getInfo());
      if (start.allocation().stream().allMatch(a -> nodes.fits(a, who) && gresFree(s, a, gresUsed))) {
        List<NodeAllocation> placed = nodes.withCpuIds(start.allocation(), r.getInfo(), node -> Gres.plus(
            s.nodes().get(node).getGresUsedList(), gresUsed.getOrDefault(node, List.of()), 1));
        if (placed == null) {
          continue; // --gres-flags=enforce-binding: too few free CPUs near its GPUs yet
        }
        for (NodeAllocation a : placed) {
          gresUsed.merge(a.getNode(), a.getGresList(), (x, y) -> Gres.plus(x, y, 1));
          nodes.take(a, who);
        }
        start = new Command.StartJob(start.jobId(), start.time(), placed, start.arrayTask(), start.reservation());
        if (left == null) {
          out.add(start);
          continue;
        }
        left = left.without(start.arrayTask());
        arraysLeft.put(start.jobId(), left);
        int id = left.isEmpty() ? start.jobId() : nextId++; // the last task takes the array's record
        out.add(new Command.StartArrayTask(start.jobId(), start.arrayTask(), id, start.time(),
            start.allocation()));
      }
    }
    Map<Integer, Waiting> changed = new LinkedHashMap<>();
    plan.waiting().forEach((id, w) -> {
      JobRecord r = s.jobs().get(id);
      if (r != null && JobStates.isPending(r.getInfo()) && !recorded(r.getInfo(), w)) {
        changed.put(id, w);
      }
    });
    if (!changed.isEmpty()) {
      out.add(new Command.SetPendingStatus(changed, now));
    }
    for (int id : plan.cancels()) {
      JobRecord r = s.jobs().get(id);
      if (r != null && JobStates.isPending(r.getInfo())) {
        out.add(new Command.CancelJob(id, now, 0)); // kill_invalid_depend, by the controller
      }
    }
    for (Command c : plan.preemptions()) {
      if (stillApplies(s, c)) {
        out.add(c);
      }
    }
    for (int id : plan.pastDeadline()) {
      JobRecord r = s.jobs().get(id);
      if (r != null && JobStates.isPending(r.getInfo())) {
        out.add(new Command.DeadlineJob(id, now));
      }
    }
    return out;
  }

  /** A preemption or resumption whose job is still as the plan saw it. */
  private static boolean stillApplies(ClusterState s, Command c) {
    return switch (c) {
      case Command.PreemptJob x -> s.job(x.jobId()).map(r -> (r.getInfo().getState() == org.corral.protocol.msg.JobState.RUNNING
          || r.getInfo().getGangSuspended()) && !r.getInfo().getCompleting() && r.getInfo().getPreempting().isEmpty()).orElse(false);
      case Command.SuspendJob x -> s.job(x.jobId()).map(r -> !r.getInfo().getCompleting() && (x.resume()
          ? r.getInfo().getState() == org.corral.protocol.msg.JobState.SUSPENDED && r.getInfo().getPreemptSuspended()
          : r.getInfo().getState() == org.corral.protocol.msg.JobState.RUNNING || r.getInfo().getGangSuspended()))
          .orElse(false);
      default -> false;
    };
  }

  private static boolean recorded(org.corral.protocol.msg.JobInfo j, Waiting w) {
    return j.getStateReason().equals(w.reason()) && j.getStartTime() == w.expectedStart()
        && j.getSchedNodes().equals(w.schedNodes());
  }

  /** Whether none of the generic resources the allocation takes is held now or by this plan. */
  private static boolean gresFree(ClusterState s, NodeAllocation a, Map<String, List<GresAlloc>> planned) {
    if (a.getGresCount() == 0) {
      return true;
    }
    NodeInfo n = s.nodes().get(a.getNode());
    List<GresAlloc> held = Gres.plus(n == null ? List.of() : n.getGresUsedList(),
        planned.getOrDefault(a.getNode(), List.of()), 1);
    for (GresAlloc g : a.getGresList()) {
      if (n == null || g.getIndicesList().stream().anyMatch(i -> i >= Gres.total(n.getGresSlotsList(), g.getName(), ""))) {
        return false;
      }
    }
    return GresUnits.of(n).free(held, a.getGresList());
  }

  /**
   * The nodes a plan's starts touch as they are now, with what the accepted starts add: CPUs,
   * memory, jobs, the CPUs sharing jobs hold and whose jobs hold them. Each is a timeline of one
   * step that lasts for ever.
   */
  private static final class NodesNow {
    private final ClusterState s;
    private final long now;
    private final Map<String, NodeTimeline> timelines = new HashMap<>();
    private final CpusHeld cpus;
    private Map<String, List<JobInfo>> holding; // node -> the jobs running on it, found on first use

    NodesNow(ClusterState s, long now) {
      this.s = s;
      this.now = now;
      this.cpus = new CpusHeld(s, name -> holding().getOrDefault(name, List.of()));
    }

    Tenancy tenancy(JobInfo j) {
      return Tenancy.of(j, s.partition(j.getPartition()).orElse(null));
    }

    boolean fits(NodeAllocation a, Tenancy who) {
      NodeTimeline t = timeline(a.getNode());
      return t != null && t.fits(now, now + 1, a.getCpus(), a.getMemMb(), who);
    }

    void take(NodeAllocation a, Tenancy who) {
      timeline(a.getNode()).reserve(now, Long.MAX_VALUE, a.getCpus(), a.getMemMb(), List.of(), who);
      cpus.take(List.of(a));
    }

    /** The allocation with the CPUs each node gives the job; null when enforce-binding cannot be kept now. */
    List<NodeAllocation> withCpuIds(List<NodeAllocation> allocation, JobInfo j,
        java.util.function.Function<String, List<GresAlloc>> gresHeld) {
      return cpus.place(allocation, j, gresHeld);
    }

    private NodeTimeline timeline(String name) {
      NodeInfo n = s.nodes().get(name);
      if (n == null || !Planner.usable(n)) {
        return null;
      }
      return timelines.computeIfAbsent(name, k -> {
        NodeTimeline t = new NodeTimeline(now, n.getCpus(), n.getCpus() - n.getAllocCpus(),
            n.getRealMemoryMb() - n.getAllocMemMb(), n.getRunningJobs());
        t.trackUsers();
        for (JobInfo j : holding().getOrDefault(name, List.of())) {
          for (NodeAllocation x : j.getAllocationList()) {
            if (x.getNode().equals(name)) { // in the node's counts already: only how it holds the node
              t.holding(Long.MAX_VALUE, x.getCpus(), x.getMemMb(), List.of(), tenancy(j));
            }
          }
        }
        return t;
      });
    }

    private Map<String, List<JobInfo>> holding() {
      if (holding == null) {
        holding = CpusHeld.holdersByNode(s);
      }
      return holding;
    }
  }
}

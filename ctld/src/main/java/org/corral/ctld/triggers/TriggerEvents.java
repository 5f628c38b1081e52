package org.corral.ctld.triggers;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.Hostlist;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.TriggerInfo;

/**
 * Which triggers fire, from one look at the cluster to the next (strigger's events as Slurm
 * defines them): a node going DOWN, coming back UP, becoming DRAINED or FAILING, staying IDLE
 * for the trigger's offset, any node changing state (reconfig); a job reaching its time limit
 * (plus the offset, negative for before) or ending (fini), a job's nodes going down or up.
 * Node events fire offset seconds after they were seen. A node program gets the nodes as a
 * hostlist, a job program the job id, a reconfig program "reconfig" (as the reference passes them).
 * Pure apart from its memory of the previous look; the first look only learns the states.
 */
final class TriggerEvents {
  /** A trigger to run now with these arguments (after the program's own). */
  record Firing(TriggerInfo trigger, List<String> args) {}

  /** What a pass found: the programs to run, and the triggers done with (fired, or their job gone). */
  record Outcome(List<Firing> firings, Set<Integer> finished) {}

  private record Look(boolean down, boolean drained, boolean fail, boolean idle) {
    static Look of(NodeInfo n) {
      boolean down = n.getBaseState() == NodeBaseState.NODE_DOWN;
      boolean busy = n.getRunningJobs() > 0;
      return new Look(down, n.getDrain() && !busy, n.getFail(), !down && !busy && !n.getDrain()
          && n.getBaseState() == NodeBaseState.NODE_IDLE);
    }
  }

  /** Nodes seen to change for a trigger with an offset, to report once it is due. */
  private record Delayed(long due, Set<String> nodes) {}

  private Map<String, Look> previous;
  private final Map<String, Long> idleSince = new HashMap<>();
  /** PERM idle triggers: the nodes already reported in their current idle period. */
  private final Map<Integer, Set<String>> idleReported = new HashMap<>();
  private final Map<Integer, Delayed> delayed = new HashMap<>();

  Outcome pass(List<TriggerInfo> triggers, ClusterState s, long now) {
    Map<String, Look> current = new HashMap<>();
    for (NodeInfo n : s.nodesInOrder()) {
      Look look = Look.of(n);
      current.put(n.getName(), look);
      if (!look.idle()) {
        idleSince.remove(n.getName());
        idleReported.values().forEach(set -> set.remove(n.getName()));
      } else {
        idleSince.putIfAbsent(n.getName(), now);
      }
    }
    Map<String, Look> before = previous == null ? current : previous;
    previous = current;
    List<Firing> firings = new ArrayList<>();
    Set<Integer> finished = new HashSet<>();
    for (TriggerInfo t : triggers) {
      List<String> args = switch (t.getResType()) {
        case "node" -> nodeEvent(t, t.getResId().equals("*") ? s.nodeOrder() : expand(t.getResId()), before,
            current, now);
        case "job" -> jobEvent(t, s, before, current, now, finished);
        default -> null; // controller, database and burst buffer events: no backup controller here
      };
      if (args != null) {
        firings.add(new Firing(t, args));
        if (!t.getPerm()) {
          finished.add(t.getId());
        }
      }
    }
    Set<Integer> live = new HashSet<>();
    triggers.forEach(t -> live.add(t.getId()));
    delayed.keySet().retainAll(live);
    idleReported.keySet().retainAll(live);
    return new Outcome(firings, finished);
  }

  /** The nodes (as a hostlist) the trigger fires for now, or null. */
  private List<String> nodeEvent(TriggerInfo t, List<String> nodes, Map<String, Look> before,
      Map<String, Look> current, long now) {
    if (t.getType().equals("reconfig")) {
      return current.equals(before) ? null : List.of("reconfig");
    }
    Set<String> hit = new LinkedHashSet<>();
    for (String name : nodes) {
      Look was = before.get(name);
      Look is = current.get(name);
      if (is == null || was == null) {
        continue;
      }
      boolean event = switch (t.getType()) {
        case "down" -> is.down() && !was.down();
        case "up" -> was.down() && !is.down();
        case "drained" -> is.drained() && !was.drained();
        case "fail" -> is.fail() && !was.fail();
        case "idle" -> is.idle() && now - idleSince.getOrDefault(name, now) >= Math.max(0, t.getOffset())
            && (!t.getPerm() || idleReported.computeIfAbsent(t.getId(), k -> new HashSet<>()).add(name));
        default -> false;
      };
      if (event) {
        hit.add(name);
      }
    }
    if (t.getType().equals("idle") || t.getOffset() <= 0) {
      return hit.isEmpty() ? null : List.of(Hostlist.compress(new ArrayList<>(hit)));
    }
    // the action follows the event by the offset
    if (!hit.isEmpty()) {
      Delayed d = delayed.get(t.getId());
      Set<String> all = new LinkedHashSet<>(d == null ? Set.of() : d.nodes());
      all.addAll(hit);
      delayed.put(t.getId(), new Delayed(d == null ? now + t.getOffset() : d.due(), all));
    }
    Delayed d = delayed.get(t.getId());
    if (d == null || now < d.due()) {
      return null;
    }
    delayed.remove(t.getId());
    return List.of(Hostlist.compress(new ArrayList<>(d.nodes())));
  }

  /** The job id when the trigger fires now, or null; a trigger whose job is over is finished. */
  private List<String> jobEvent(TriggerInfo t, ClusterState s, Map<String, Look> before, Map<String, Look> current,
      long now, Set<Integer> finished) {
    int id;
    try {
      id = Integer.parseUnsignedInt(t.getResId());
    } catch (NumberFormatException e) {
      finished.add(t.getId());
      return null;
    }
    JobRecord rec = s.job(id).orElse(null);
    boolean over = rec == null || ended(rec.getInfo().getState());
    List<String> jobId = List.of(Integer.toUnsignedString(id));
    if (t.getType().equals("fini")) {
      return over ? jobId : null;
    }
    if (over) {
      finished.add(t.getId()); // its job is gone: the event can no longer happen
      return null;
    }
    JobInfo job = rec.getInfo();
    if (t.getType().equals("time")) {
      long limit = Integer.toUnsignedLong(job.getTimeLimitMin());
      if (job.getState() != JobState.RUNNING || limit == 0xFFFFFFFFL || job.getStartTime() == 0) {
        return null;
      }
      return now >= job.getStartTime() + limit * 60 + t.getOffset() ? jobId : null;
    }
    List<String> nodes = job.getAllocationList().stream().map(NodeAllocation::getNode).toList();
    return nodeEvent(t, nodes, before, current, now) == null ? null : jobId;
  }

  private static boolean ended(JobState state) {
    return state != JobState.PENDING && state != JobState.RUNNING && state != JobState.SUSPENDED;
  }

  private static List<String> expand(String hostlist) {
    try {
      return Hostlist.expand(hostlist);
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }
}

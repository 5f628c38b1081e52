package org.corral.ctld.sched;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmDuration;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
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

  private Availability(long now, Map<String, NodeTimeline> nodes) {
    this.now = now;
    this.nodes = nodes;
  }

  static Availability of(ClusterState state, long now) {
    Map<String, NodeTimeline> nodes = new HashMap<>();
    for (NodeInfo n : state.nodes().values()) {
      if (Planner.usable(n)) {
        NodeTimeline t = new NodeTimeline(now, n.getCpus(), n.getCpus() - n.getAllocCpus(),
            n.getRealMemoryMb() - n.getAllocMemMb(), n.getRunningJobs());
        if (n.getGresSlotsCount() > 0) {
          GresUnits units = GresUnits.of(n);
          t.gres(units, units.bits(n.getGresUsedList()));
        }
        nodes.put(n.getName(), t);
      }
    }
    for (JobRecord r : state.jobs().values()) {
      JobInfo j = r.getInfo();
      if (!JobStates.holdsResources(j) || j.getAllocationCount() == 0) {
        continue;
      }
      long end = releaseTime(j, now);
      for (NodeAllocation a : j.getAllocationList()) {
        NodeTimeline t = nodes.get(a.getNode());
        if (t != null) {
          t.release(end, a.getCpus(), a.getMemMb(), a.getGresList());
        }
      }
    }
    return new Availability(now, nodes);
  }

  /**
   * When a job's resources come back: at its time limit; a job past it or completing, in a
   * moment; one without a limit, a year after it started.
   */
  private static long releaseTime(JobInfo j, long now) {
    if (j.getCompleting() || JobStates.isFinished(j)) {
      return now + 1;
    }
    if (j.getEndTime() == 0) {
      return Math.max(now + 1, j.getStartTime() + UNLIMITED_S);
    }
    return Math.max(now + 1, j.getEndTime());
  }

  /** A job's planned run time in seconds. */
  static long duration(JobInfo j) {
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    return limit == SlurmDuration.INFINITE ? UNLIMITED_S : Math.max(60, limit * 60);
  }

  long now() {
    return now;
  }

  int version() {
    return version;
  }

  /** The node's timeline, or null when the node cannot take work (down, drained, not responding). */
  NodeTimeline node(String name) {
    return nodes.get(name);
  }

  /** The job gets these resources over [from, to). */
  void take(List<NodeAllocation> alloc, long from, long to) {
    version++;
    for (NodeAllocation a : alloc) {
      NodeTimeline t = nodes.get(a.getNode());
      if (t != null) {
        t.reserve(from, to, a.getCpus(), a.getMemMb(), a.getGresList());
      }
    }
  }
}

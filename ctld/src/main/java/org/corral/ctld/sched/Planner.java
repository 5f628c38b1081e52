package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.SlurmDuration;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * The first scheduler: a pure function from a state and a time to a {@link Plan}. Pending jobs
 * go in priority order (then submit order); each takes the first nodes that fit its CPUs and
 * memory (consumable cores and memory, many jobs per node). Within a partition the first job
 * that cannot start blocks the ones behind it (Slurm's sched/builtin): they wait for Priority.
 * The scheduling issue replaces the ordering and adds backfill; this shape stays.
 */
public final class Planner {
  static final String NODES_UNAVAILABLE =
      "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions";

  private Planner() {}

  public static Plan plan(ClusterState state, long now) {
    Map<String, Free> free = new HashMap<>();
    for (NodeInfo n : state.nodesInOrder()) {
      free.put(n.getName(), new Free(n.getCpus() - n.getAllocCpus(),
          n.getRealMemoryMb() - n.getAllocMemMb(), n.getRunningJobs()));
    }
    List<JobInfo> pending = new ArrayList<>();
    for (JobRecord r : state.jobs().values()) {
      if (JobStates.isPending(r.getInfo())) {
        pending.add(r.getInfo());
      }
    }
    pending.sort(Comparator.comparingLong((JobInfo j) -> -Integer.toUnsignedLong(j.getPriority()))
        .thenComparingLong(JobInfo::getSubmitTime).thenComparingInt(JobInfo::getJobId));

    List<Command.StartJob> starts = new ArrayList<>();
    Map<Integer, String> reasons = new LinkedHashMap<>();
    Set<String> blocked = new HashSet<>();
    for (JobInfo j : pending) {
      if (j.getPriority() == 0 || j.getCompleting()) {
        continue; // held (keeps JobHeldUser/JobHeldAdmin), or a requeued run still ending
      }
      if (j.getEligibleTime() > now) {
        reasons.put(j.getJobId(), "BeginTime");
        continue;
      }
      PartitionInfo p = state.partition(j.getPartition()).orElse(null);
      String reason = staticReason(j, p, state);
      if (reason != null) {
        reasons.put(j.getJobId(), reason);
        continue;
      }
      if (blocked.contains(p.getName())) {
        reasons.put(j.getJobId(), "Priority");
        continue;
      }
      List<NodeAllocation> alloc = NodeSelector.select(j, p, state, free);
      if (alloc == null) {
        blocked.add(p.getName());
        reasons.put(j.getJobId(), NodeSelector.anyUsable(j, p, state) ? "Resources" : NODES_UNAVAILABLE);
        continue;
      }
      for (NodeAllocation a : alloc) {
        free.get(a.getNode()).take(a.getCpus(), a.getMemMb());
      }
      starts.add(new Command.StartJob(j.getJobId(), now, alloc));
    }
    return new Plan(List.copyOf(starts), reasons);
  }

  /** Why a job cannot start whatever the nodes' load, or null. */
  private static String staticReason(JobInfo j, PartitionInfo p, ClusterState state) {
    if (p == null) {
      return "BadConstraints";
    }
    switch (DependencyCheck.check(j.getDependency(), state)) {
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

  /** Resources left on a node while planning. */
  static final class Free {
    int cpus;
    long memMb;
    int jobs;

    Free(int cpus, long memMb, int jobs) {
      this.cpus = cpus;
      this.memMb = memMb;
      this.jobs = jobs;
    }

    void take(int c, long m) {
      cpus -= c;
      memMb -= m;
      jobs++;
    }
  }

  static boolean usable(NodeInfo n) {
    return n.getBaseState() == NodeBaseState.NODE_IDLE && !n.getDrain() && !n.getNotResponding();
  }
}

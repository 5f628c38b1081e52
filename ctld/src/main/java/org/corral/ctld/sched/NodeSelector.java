package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Chooses nodes for one job: the partition's usable nodes by Weight then configuration order,
 * the first ones with enough free CPUs and memory (cons_tres-style: many jobs per node;
 * --exclusive takes whole idle nodes).
 */
final class NodeSelector {
  private NodeSelector() {}

  /** The allocation, or null if the job does not fit now. */
  static List<NodeAllocation> select(JobInfo j, PartitionInfo p, ClusterState state,
      Map<String, Planner.Free> free) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    if (!j.getExclusive() && j.getNtasksPerNode() == 0 && nodesWanted > 1) {
      return packed(j, p, state, free, nodesWanted);
    }
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    List<NodeAllocation> out = new ArrayList<>();
    for (NodeInfo n : candidates(p, state)) {
      Planner.Free f = free.get(n.getName());
      if (f == null || !Planner.usable(n)) {
        continue;
      }
      int cpus = j.getExclusive() ? n.getCpus() : cpusPerNode;
      long mem = memoryOnNode(j, n, cpus);
      boolean fits = j.getExclusive()
          ? f.jobs == 0 && f.cpus == n.getCpus()
          : f.cpus >= cpus && f.memMb >= mem;
      if (fits && cpus <= n.getCpus()) {
        out.add(NodeAllocation.newBuilder().setNode(n.getName()).setCpus(cpus).setMemMb(mem).build());
        if (out.size() == nodesWanted) {
          return out;
        }
      }
    }
    return null;
  }

  /**
   * A job on several nodes, as Slurm's cons_tres lays out its tasks: a task on each node first,
   * then the rest on the first nodes, each filled up to what it has free (-N2 -n4 on idle 8-CPU
   * nodes takes 3 CPUs of the first and 1 of the second).
   */
  private static List<NodeAllocation> packed(JobInfo j, PartitionInfo p, ClusterState state,
      Map<String, Planner.Free> free, int nodesWanted) {
    int cpt = Math.max(1, j.getCpusPerTask());
    int tasks = Math.max(nodesWanted, j.getNumTasks());
    List<NodeInfo> chosen = new ArrayList<>();
    List<Integer> room = new ArrayList<>();
    for (NodeInfo n : candidates(p, state)) {
      Planner.Free f = free.get(n.getName());
      if (f == null || !Planner.usable(n)) {
        continue;
      }
      int fits = Math.min(f.cpus, n.getCpus()) / cpt;
      while (fits > 0 && f.memMb < memoryOnNode(j, n, fits * cpt)) {
        fits--;
      }
      if (fits > 0) {
        chosen.add(n);
        room.add(fits);
        if (chosen.size() == nodesWanted) {
          break;
        }
      }
    }
    if (chosen.size() < nodesWanted) {
      return null;
    }
    int[] share = new int[nodesWanted];
    int left = tasks - nodesWanted;
    for (int i = 0; i < nodesWanted; i++) {
      share[i] = 1 + Math.min(left, room.get(i) - 1);
      left -= share[i] - 1;
    }
    if (left > 0) {
      return null;
    }
    List<NodeAllocation> out = new ArrayList<>();
    for (int i = 0; i < nodesWanted; i++) {
      NodeInfo n = chosen.get(i);
      int cpus = share[i] * cpt;
      out.add(NodeAllocation.newBuilder().setNode(n.getName()).setCpus(cpus)
          .setMemMb(memoryOnNode(j, n, cpus)).build());
    }
    return out;
  }

  /** Whether any node of the partition could take the job if it were empty. */
  static boolean anyUsable(JobInfo j, PartitionInfo p, ClusterState state) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    long count = candidates(p, state).stream().filter(Planner::usable)
        .filter(n -> n.getCpus() >= cpusPerNode
            && n.getRealMemoryMb() >= memoryOnNode(j, n, cpusPerNode))
        .count();
    return count >= nodesWanted;
  }

  private static List<NodeInfo> candidates(PartitionInfo p, ClusterState state) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (String name : p.getNodeNamesList()) {
      state.node(name).ifPresent(nodes::add);
    }
    nodes.sort(Comparator.comparingInt(NodeInfo::getWeight)); // stable: keeps config order
    return nodes;
  }

  static int cpusPerNode(JobInfo j, int nodes) {
    int cpt = Math.max(1, j.getCpusPerTask());
    if (j.getNtasksPerNode() > 0) {
      return j.getNtasksPerNode() * cpt;
    }
    int tasks = Math.max(1, j.getNumTasks());
    return ((tasks + nodes - 1) / nodes) * cpt;
  }

  /** Memory a job takes on a node: --mem, --mem-per-cpu x CPUs, or (neither) the whole node. */
  static long memoryOnNode(JobInfo j, NodeInfo n, int cpus) {
    if (j.getExclusive() && j.getMemPerNodeMb() == 0 && j.getMemPerCpuMb() == 0) {
      return n.getRealMemoryMb();
    }
    if (j.getMemPerNodeMb() > 0) {
      return j.getMemPerNodeMb();
    }
    if (j.getMemPerCpuMb() > 0) {
      return j.getMemPerCpuMb() * cpus;
    }
    return n.getRealMemoryMb();
  }
}

package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * Chooses nodes for one job over a span of time: the partition's nodes by Weight then
 * configuration order, the first ones with enough CPUs and memory free for the whole span
 * (cons_tres-style: many jobs per node; --exclusive takes whole idle nodes).
 */
final class NodeSelector {
  /** Start times tried per job before giving up on planning it (bounds a pass's cost). */
  private static final int MAX_TRIES = 200;

  private NodeSelector() {}

  /** The allocation over [from, to), or null if the job does not fit then. */
  static List<NodeAllocation> select(JobInfo j, List<NodeInfo> candidates, Availability av,
      long from, long to) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    if (packed(j, nodesWanted)) {
      return packed(j, candidates, av, from, to, nodesWanted);
    }
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    List<NodeAllocation> out = new ArrayList<>();
    for (NodeInfo n : candidates) {
      NodeTimeline t = av.node(n.getName());
      if (t == null) {
        continue;
      }
      int cpus = j.getExclusive() ? n.getCpus() : cpusPerNode;
      long mem = memoryOnNode(j, n, cpus);
      if (cpus <= n.getCpus() && t.fits(from, to, cpus, mem, j.getExclusive())) {
        out.add(NodeAllocation.newBuilder().setNode(n.getName()).setCpus(cpus).setMemMb(mem).build());
        if (out.size() == nodesWanted) {
          return out;
        }
      }
    }
    return null;
  }

  /**
   * The earliest time in [from, latest] at which the job fits for {@code duration}, or -1.
   * Each node's own earliest fit bounds the answer from below; the times at which something is
   * freed on a node that could serve are the candidates after that.
   */
  static long earliestStart(JobInfo j, List<NodeInfo> candidates, Availability av, long from,
      long latest, long duration) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    boolean packed = packed(j, nodesWanted);
    int cpt = Math.max(1, j.getCpusPerTask());
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    long[] fits = new long[candidates.size()];
    int found = 0;
    List<NodeTimeline> serving = new ArrayList<>();
    for (NodeInfo n : candidates) {
      NodeTimeline t = av.node(n.getName());
      if (t == null) {
        continue;
      }
      int cpus = packed ? cpt : j.getExclusive() ? n.getCpus() : cpusPerNode;
      if (cpus > n.getCpus()) {
        continue;
      }
      long e = t.earliestFit(from, latest, duration, cpus, memoryOnNode(j, n, cpus), j.getExclusive());
      if (e >= 0) {
        fits[found++] = e;
        serving.add(t);
      }
    }
    if (found < nodesWanted) {
      return -1;
    }
    java.util.Arrays.sort(fits, 0, found);
    long first = fits[nodesWanted - 1];
    if (nodesWanted == 1 && !packed) {
      return first; // one node, and it fits from then
    }
    TreeSet<Long> times = new TreeSet<>();
    for (int i = 0; i < found; i++) {
      if (fits[i] >= first) {
        times.add(fits[i]);
      }
    }
    for (NodeTimeline t : serving) {
      t.releaseTimes(first, latest, times::add);
    }
    int tries = 0;
    for (long time : times) {
      if (select(j, candidates, av, time, time + duration) != null) {
        return time;
      }
      if (++tries == MAX_TRIES) {
        break;
      }
    }
    return -1;
  }

  /** A job on several nodes whose tasks need not be spread evenly. */
  private static boolean packed(JobInfo j, int nodesWanted) {
    return !j.getExclusive() && j.getNtasksPerNode() == 0 && nodesWanted > 1;
  }

  /**
   * A job on several nodes, as Slurm's cons_tres lays out its tasks: a task on each node first,
   * then the rest on the first nodes, each filled up to what it has free (-N2 -n4 on idle 8-CPU
   * nodes takes 3 CPUs of the first and 1 of the second).
   */
  private static List<NodeAllocation> packed(JobInfo j, List<NodeInfo> candidates, Availability av,
      long from, long to, int nodesWanted) {
    int cpt = Math.max(1, j.getCpusPerTask());
    int tasks = Math.max(nodesWanted, j.getNumTasks());
    List<NodeInfo> chosen = new ArrayList<>();
    List<Integer> room = new ArrayList<>();
    for (NodeInfo n : candidates) {
      NodeTimeline t = av.node(n.getName());
      if (t == null) {
        continue;
      }
      int fits = Math.min(t.minCpus(from, to), n.getCpus()) / cpt;
      long memFree = t.minMem(from, to);
      while (fits > 0 && memFree < memoryOnNode(j, n, fits * cpt)) {
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

  /** Whether enough usable nodes of the partition could take the job if they were empty. */
  static boolean anyUsable(JobInfo j, List<NodeInfo> candidates) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    long count = candidates.stream().filter(Planner::usable)
        .filter(n -> n.getCpus() >= cpusPerNode
            && n.getRealMemoryMb() >= memoryOnNode(j, n, cpusPerNode))
        .count();
    return count >= nodesWanted;
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

package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * Chooses nodes for one job over a span of time: the partition's nodes by Weight then
 * configuration order, the first ones with enough CPUs and memory free for the whole span
 * (cons_tres-style: many jobs per node; --exclusive takes whole idle nodes). A job that may
 * share CPUs (OverSubscribe) takes CPUs no job holds where the whole job fits so, else shares.
 */
final class NodeSelector {
  /** Start times tried per job before giving up on planning it (bounds a pass's cost). */
  private static final int MAX_TRIES = 20;

  /**
   * A partition's nodes in the order they are chosen (Weight, then configuration), each with
   * its timeline in this pass's profile (null where the node cannot take work).
   */
  record Candidates(List<NodeInfo> nodes, NodeTimeline[] timelines, long now, int[] firstNotFull,
      String oversubscribe) {
    /** The nodes of a partition whose OverSubscribe is {@code oversubscribe}. */
    static Candidates of(List<NodeInfo> nodes, Availability av, String oversubscribe) {
      NodeTimeline[] t = new NodeTimeline[nodes.size()];
      for (int i = 0; i < t.length; i++) {
        t[i] = av.node(nodes.get(i).getName());
      }
      return new Candidates(nodes, t, av.now(), new int[1], oversubscribe);
    }

    /** How job {@code j} holds these nodes. */
    Tenancy tenancy(JobInfo j) {
      return Tenancy.of(j, oversubscribe);
    }

    /**
     * Where a search for resources free now may begin: the nodes before are full now, and a
     * pass only takes resources, so they stay full (keeps a pass's first-fit starts linear).
     */
    int firstUsableNow() {
      int i = firstNotFull[0];
      while (i < timelines.length && (timelines[i] == null || timelines[i].fullNow())) {
        i++;
      }
      firstNotFull[0] = i;
      return i;
    }
  }

  private NodeSelector() {}

  /** The allocation over [from, to), or null if the job does not fit then. */
  static List<NodeAllocation> select(JobInfo j, Candidates candidates, long from, long to) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    if (j.getContiguous() && nodesWanted > 1) {
      return contiguous(j, candidates, from, to, nodesWanted);
    }
    return anywhere(j, candidates, from, to);
  }

  /**
   * --contiguous: the first run of {@code nodesWanted} consecutive candidates (the partition's
   * order, by Weight first) that holds the job, laid out on them as anywhere else.
   */
  private static List<NodeAllocation> contiguous(JobInfo j, Candidates c, long from, long to, int nodesWanted) {
    NodeTimeline[] all = c.timelines();
    for (int start = 0; start + nodesWanted <= all.length; start++) {
      boolean usable = true;
      for (int i = start; i < start + nodesWanted && usable; i++) {
        usable = all[i] != null;
      }
      if (!usable) {
        continue;
      }
      NodeTimeline[] window = new NodeTimeline[all.length];
      System.arraycopy(all, start, window, start, nodesWanted);
      List<NodeAllocation> got = anywhere(j, new Candidates(c.nodes(), window, c.now(), new int[1], c.oversubscribe()),
          from, to);
      if (got != null) {
        return got;
      }
    }
    return null;
  }

  private static List<NodeAllocation> anywhere(JobInfo j, Candidates candidates, long from, long to) {
    Tenancy who = candidates.tenancy(j);
    if (who.shares()) { // Slurm fills CPUs no job holds before it puts a second job on any
      List<NodeAllocation> alone = select(j, candidates, from, to, who.alone());
      if (alone != null) {
        return alone;
      }
    }
    return select(j, candidates, from, to, who);
  }

  private static List<NodeAllocation> select(JobInfo j, Candidates candidates, long from, long to, Tenancy who) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    if (packed(j, nodesWanted)) {
      return packed(j, candidates, from, to, nodesWanted, who);
    }
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    NodeFilter filter = NodeFilter.of(j);
    GresNeed gn = GresNeed.of(j);
    List<NodeAllocation> out = new ArrayList<>();
    // the nodes it named (-w) first, every one of them, then the others in order
    int first = firstToTry(candidates, from, filter, who);
    for (boolean required : filter.required().isEmpty() ? new boolean[] {false} : new boolean[] {true, false}) {
      for (int i = first; i < candidates.timelines().length && out.size() < nodesWanted; i++) {
        NodeTimeline t = candidates.timelines()[i];
        NodeInfo n = candidates.nodes().get(i);
        if (t == null || filter.required().contains(n.getName()) != required || !filter.allows(n)) {
          continue;
        }
        int cpus = j.getExclusive() ? n.getCpus() : cpusPerNode;
        List<GresCount> need = gn.forNode(out.size(), nodesWanted, tasksOn(j, cpus, nodesWanted));
        cpus = j.getExclusive() ? cpus : gn.cpus(cpus, need);
        long mem = gn.mem(memoryOnNode(j, n, cpus), need);
        List<GresAlloc> gres = List.of();
        if (cpus <= n.getCpus() && t.fits(from, to, cpus, mem, who)
            && (need.isEmpty() || (gres = t.pickGres(from, to, need)) != null)) {
          out.add(NodeAllocation.newBuilder().setNode(n.getName()).setCpus(cpus).setMemMb(mem)
              .addAllGres(gres).build());
        } else if (required) {
          return null;
        }
      }
      if (required && out.size() < filter.required().size()) {
        return null; // a named node is not in the partition or cannot take work
      }
    }
    return out.size() == nodesWanted ? out : null;
  }

  /**
   * The earliest time in [from, latest] at which the job fits for {@code duration}, or -1.
   * Each node's own earliest fit bounds the answer from below: the k-th smallest of them (k the
   * nodes wanted) is the first candidate. Where fewer than k nodes fit then (a planned job takes
   * one of them later), the nodes' earliest fits after it give the next candidate.
   */
  static long earliestStart(JobInfo j, Candidates candidates, long from, long latest, long duration) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    boolean packed = packed(j, nodesWanted);
    int cpt = Math.max(1, j.getCpusPerTask());
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    NodeTimeline[] timelines = candidates.timelines();
    NodeFilter filter = NodeFilter.of(j);
    int n = timelines.length;
    int[] cpus = new int[n];
    long[] mem = new long[n];
    GresNeed gn = GresNeed.of(j);
    Tenancy who = candidates.tenancy(j);
    List<GresCount> need = gn.forNode(0, nodesWanted, packed ? 1 : tasksOn(j, cpusPerNode, nodesWanted));
    for (int i = 0; i < n; i++) {
      NodeInfo node = candidates.nodes().get(i);
      cpus[i] = packed ? cpt : j.getExclusive() ? node.getCpus() : gn.cpus(cpusPerNode, need);
      mem[i] = gn.mem(memoryOnNode(j, node, cpus[i]), need);
      if (timelines[i] == null || cpus[i] > node.getCpus() || !filter.allows(node)
          || (!need.isEmpty() && !timelines[i].units().couldHold(need))) {
        cpus[i] = -1; // this node cannot serve the job
      }
    }
    long at = from;
    long[] heap = new long[nodesWanted]; // the k earliest fits so far, largest first
    for (int tries = 0; tries < MAX_TRIES && at <= latest; tries++) {
      int size = 0;
      long bound = latest; // a fit later than the k-th earliest so far cannot matter
      for (int i = 0; i < n; i++) {
        if (cpus[i] < 0) {
          continue;
        }
        long e = timelines[i].earliestFit(at, bound, duration, cpus[i], mem[i], who, need);
        if (e < 0) {
          continue;
        }
        size = offer(heap, size, e);
        if (size == nodesWanted) {
          bound = heap[0] - 1;
        }
      }
      if (size < nodesWanted) {
        return -1;
      }
      long candidate = heap[0];
      if (!filter.required().isEmpty()) { // every named node must fit too
        for (int i = 0; i < n; i++) {
          if (cpus[i] >= 0 && filter.required().contains(candidates.nodes().get(i).getName())) {
            long e = timelines[i].earliestFit(at, latest, duration, cpus[i], mem[i], who, need);
            if (e < 0) {
              return -1;
            }
            candidate = Math.max(candidate, e);
          }
        }
      } else if (nodesWanted == 1 && !packed) {
        return candidate; // one node, and it fits from then
      }
      if (select(j, candidates, candidate, candidate + duration) != null) {
        return candidate;
      }
      // fewer nodes fit then than their earliest fits promised: try when something is freed next
      at = Long.MAX_VALUE;
      for (int i = 0; i < n; i++) {
        if (cpus[i] >= 0) {
          at = Math.min(at, timelines[i].nextRelease(candidate));
        }
      }
    }
    return -1;
  }

  /** Adds v to a max-heap of at most heap.length values (dropping the largest when full). */
  private static int offer(long[] heap, int size, long v) {
    if (size < heap.length) {
      int i = size++;
      heap[i] = v;
      while (i > 0 && heap[(i - 1) / 2] < heap[i]) {
        long t = heap[i];
        heap[i] = heap[(i - 1) / 2];
        heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
      }
      return size;
    }
    if (v >= heap[0]) {
      return size;
    }
    heap[0] = v;
    int i = 0;
    while (true) {
      int l = 2 * i + 1;
      int r = l + 1;
      int big = i;
      if (l < size && heap[l] > heap[big]) {
        big = l;
      }
      if (r < size && heap[r] > heap[big]) {
        big = r;
      }
      if (big == i) {
        return size;
      }
      long t = heap[i];
      heap[i] = heap[big];
      heap[big] = t;
      i = big;
    }
  }

  /**
   * A start no earlier than {@code from} at which the job surely fits: when enough of the nodes
   * that could hold it have nothing known left on them. Cheap (no search), for estimates beyond
   * bf_window, where nothing is reserved.
   */
  static long lateEstimate(JobInfo j, Candidates candidates, long from) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    int cpusPerNode = packed(j, nodesWanted) ? Math.max(1, j.getCpusPerTask()) : cpusPerNode(j, nodesWanted);
    long[] idle = new long[candidates.timelines().length];
    NodeFilter filter = NodeFilter.of(j);
    int found = 0;
    for (int i = 0; i < idle.length; i++) {
      NodeTimeline t = candidates.timelines()[i];
      NodeInfo n = candidates.nodes().get(i);
      if (t != null && cpusPerNode <= n.getCpus() && memoryOnNode(j, n, cpusPerNode) <= n.getRealMemoryMb()
          && filter.allows(n) && holdsGres(j, n, nodesWanted)) {
        idle[found++] = Math.max(from, t.idleFrom());
      }
    }
    return found < nodesWanted ? -1 : kthSmallest(idle, found, nodesWanted);
  }

  /** The k-th smallest (1-based) of the first {@code size} values. */
  private static long kthSmallest(long[] values, int size, int k) {
    if (k == 1) {
      long min = Long.MAX_VALUE;
      for (int i = 0; i < size; i++) {
        min = Math.min(min, values[i]);
      }
      return min;
    }
    java.util.Arrays.sort(values, 0, size);
    return values[k - 1];
  }

  /** A job on several nodes whose tasks need not be spread evenly (not with --overcommit: a task's CPUs on each). */
  static boolean packed(JobInfo j, int nodesWanted) {
    return !j.getExclusive() && !j.getOvercommit() && j.getNtasksPerNode() == 0 && nodesWanted > 1;
  }

  /**
   * A job on several nodes, as Slurm's cons_tres lays out its tasks: a task on each node first,
   * then the rest on the first nodes, each filled up to what it has free (-N2 -n4 on idle 8-CPU
   * nodes takes 3 CPUs of the first and 1 of the second).
   */
  private static List<NodeAllocation> packed(JobInfo j, Candidates candidates, long from, long to,
      int nodesWanted, Tenancy who) {
    int cpt = Math.max(1, j.getCpusPerTask());
    int tasks = Math.max(nodesWanted, j.getNumTasks());
    List<Integer> fitting = new ArrayList<>(); // candidate indexes with room for a task, in order
    List<Integer> rooms = new ArrayList<>();
    int firstRoom = 0;
    NodeFilter filter = NodeFilter.of(j);
    int first = firstToTry(candidates, from, filter, who);
    for (int i : filter.required().isEmpty() ? order(first, candidates.nodes().size()) : requiredFirst(candidates, filter)) {
      NodeTimeline t = candidates.timelines()[i];
      NodeInfo n = candidates.nodes().get(i);
      if (t == null || !filter.allows(n) || !holdsGres(j, n, nodesWanted)) {
        continue;
      }
      int fits = Math.min(t.minCpus(from, to, who), n.getCpus()) / cpt;
      long memFree = t.minMem(from, to);
      while (fits > 0 && memFree < memoryOnNode(j, n, fits * cpt)) {
        fits--;
      }
      if (fits > 0) {
        fitting.add(i);
        rooms.add(fits);
        if (fitting.size() <= nodesWanted) {
          firstRoom += fits;
        }
        if (fitting.size() == nodesWanted && firstRoom >= tasks) {
          break; // the first nodes in order hold the tasks: Slurm's layout
        }
      }
    }
    if (fitting.size() < nodesWanted) {
      return null;
    }
    List<Integer> pick = new ArrayList<>();
    for (int k = 0; k < fitting.size(); k++) {
      pick.add(k);
    }
    int named = 0;
    for (int k = 0; k < fitting.size() && k < nodesWanted; k++) {
      if (filter.required().contains(candidates.nodes().get(fitting.get(k)).getName())) {
        named++;
      }
    }
    if (named < filter.required().size()) {
      return null; // a named node has no room
    }
    if (firstRoom < tasks && filter.required().isEmpty()) {
      // the first nodes are too full: take those with the most room (kept in order)
      pick.sort(java.util.Comparator.comparingInt((Integer k) -> -rooms.get(k)));
    }
    pick = new ArrayList<>(pick.subList(0, nodesWanted));
    java.util.Collections.sort(pick);
    List<NodeInfo> chosen = new ArrayList<>();
    List<Integer> room = new ArrayList<>();
    for (int k : pick) {
      chosen.add(candidates.nodes().get(fitting.get(k)));
      room.add(rooms.get(k));
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
    GresNeed gn = GresNeed.of(j);
    for (int i = 0; i < nodesWanted; i++) {
      NodeInfo n = chosen.get(i);
      int cpus = share[i] * cpt;
      List<GresCount> need = gn.forNode(i, nodesWanted, share[i]);
      List<GresAlloc> gres = need.isEmpty() ? List.of()
          : candidates.timelines()[fitting.get(pick.get(i))].pickGres(from, to, need);
      if (gres == null) {
        return null; // the spread of tasks leaves a node without the generic resources it needs
      }
      out.add(NodeAllocation.newBuilder().setNode(n.getName()).setCpus(cpus)
          .setMemMb(gn.mem(memoryOnNode(j, n, cpus), need)).addAllGres(gres).build());
    }
    return out;
  }

  /**
   * The first candidate worth trying: past the nodes full now when the search is for now, for
   * any node, by a job that does not share (a sharing job may still fit on a full node).
   */
  private static int firstToTry(Candidates candidates, long from, NodeFilter filter, Tenancy who) {
    return from == candidates.now() && filter.required().isEmpty() && !who.shares()
        ? candidates.firstUsableNow() : 0;
  }

  private static int[] order(int first, int n) {
    int[] o = new int[Math.max(0, n - first)];
    for (int i = first; i < n; i++) {
      o[i - first] = i;
    }
    return o;
  }

  /** Candidate positions with the job's named nodes first. */
  private static int[] requiredFirst(Candidates c, NodeFilter f) {
    int[] o = new int[c.nodes().size()];
    int k = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < o.length; i++) {
        if (f.required().contains(c.nodes().get(i).getName()) == (pass == 0)) {
          o[k++] = i;
        }
      }
    }
    return o;
  }

  /** Whether enough usable nodes of the partition could take the job if they were empty. */
  static boolean anyUsable(JobInfo j, Candidates candidates) {
    int nodesWanted = Math.max(1, j.getMinNodes());
    int cpusPerNode = cpusPerNode(j, nodesWanted);
    NodeFilter filter = NodeFilter.of(j);
    long count = candidates.nodes().stream().filter(Planner::usable).filter(filter::allows)
        .filter(n -> n.getCpus() >= cpusPerNode
            && n.getRealMemoryMb() >= memoryOnNode(j, n, cpusPerNode))
        .filter(n -> holdsGres(j, n, nodesWanted))
        .count();
    return count >= nodesWanted;
  }

  /** Whether the node has, taken or not, the generic resources the job needs on each node. */
  static boolean holdsGres(JobInfo j, NodeInfo n, int nodes) {
    GresNeed gn = GresNeed.of(j);
    if (gn.isEmpty()) {
      return true;
    }
    return GresUnits.of(n).couldHold(gn.forNode(0, nodes, 1));
  }

  /** The job's tasks on a node where it takes {@code cpus} CPUs. */
  private static int tasksOn(JobInfo j, int cpus, int nodes) {
    if (j.getExclusive()) {
      return j.getNtasksPerNode() > 0 ? j.getNtasksPerNode()
          : (Math.max(1, j.getNumTasks()) + nodes - 1) / nodes;
    }
    return Math.max(1, cpus / Math.max(1, j.getCpusPerTask()));
  }

  /**
   * CPUs the job takes on each node: its tasks' there, or with --overcommit one task's (the
   * tasks then share them); at least --mincpus.
   */
  static int cpusPerNode(JobInfo j, int nodes) {
    int cpt = Math.max(1, j.getCpusPerTask());
    int cpus;
    if (j.getOvercommit()) {
      cpus = cpt;
    } else if (j.getNtasksPerNode() > 0) {
      cpus = j.getNtasksPerNode() * cpt;
    } else {
      int tasks = Math.max(1, j.getNumTasks());
      cpus = ((tasks + nodes - 1) / nodes) * cpt;
    }
    return Math.max(cpus, j.getMinCpusPerNode());
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

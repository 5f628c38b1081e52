package org.corral.ctld.sched;

import java.util.Arrays;
import java.util.List;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.GresAlloc;

/**
 * One node's free CPUs and memory, and how many jobs hold it, from now on: a step function
 * whose steps are the ends of running jobs (resources come back) and the planned jobs of this
 * pass (resources taken for a while). Segment i covers [times[i], times[i+1]); the last one
 * lasts for ever.
 *
 * <p>Sharing jobs (OverSubscribe) are counted in CPU-job units: {@code cpus} is what the
 * node has less every job's CPUs, so it goes below zero once sharing jobs hold more than the
 * CPUs no other job holds ({@code room}). They spread over that room and wrap round it when it
 * is full, so every CPU of it holds at most ceil(shared / room) of them, and a job of up to
 * {@code room} CPUs never gets one CPU twice: a sharing job with limit N fits while its CPUs
 * fit in the room and shared + its CPUs stay within N x room. A job that does not share gets
 * only CPUs no job holds.
 */
final class NodeTimeline {
  private final int totalCpus;
  private long[] times;
  private int[] cpus;
  private long[] mem;
  private int[] jobs;
  private int[] shared; // CPU-job units held by sharing jobs
  private int[][] users; // per segment, the userMark of each job; null = users not tracked in this pass
  private long[][] gres; // per segment, the generic resource units taken (bits over units); null = none here
  private GresUnits units = GresUnits.EMPTY;
  private int size;

  NodeTimeline(long now, int totalCpus, int freeCpus, long freeMem, int jobCount) {
    this.totalCpus = totalCpus;
    times = new long[4];
    cpus = new int[4];
    mem = new long[4];
    jobs = new int[4];
    shared = new int[4];
    times[0] = now;
    cpus[0] = freeCpus;
    mem[0] = freeMem;
    jobs[0] = jobCount;
    size = 1;
  }

  int totalCpus() {
    return totalCpus;
  }

  /** The node's generic resources, those in {@code busyNow} taken now. */
  void gres(GresUnits u, long[] busyNow) {
    units = u;
    if (u.size() > 0) {
      gres = new long[times.length][];
      for (int i = 0; i < size; i++) {
        gres[i] = busyNow.clone();
      }
    }
  }

  GresUnits units() {
    return units;
  }

  /** Tracks whose jobs hold the node (needed once some job keeps other users off its nodes). */
  void trackUsers() {
    users = new int[times.length][];
    for (int i = 0; i < size; i++) {
      users[i] = new int[0];
    }
  }

  /**
   * A job found holding resources now until {@code end}: its CPUs and memory are in the node's
   * counts already; from {@code end} on they are free.
   */
  void holding(long end, int c, long m, List<GresAlloc> g, Tenancy who) {
    release(end, c, m, g);
    int stop = split(end);
    for (int i = 0; i < stop; i++) {
      if (who.shares()) {
        shared[i] += c;
      }
      if (users != null) {
        users[i] = withMark(users[i], who.userMark());
      }
    }
  }

  /** A job planned over [from, to) takes these resources, generic ones too, as {@code who} holds nodes. */
  void reserve(long from, long to, int c, long m, List<GresAlloc> g, Tenancy who) {
    reserve(from, to, c, m, g);
    tenant(from, to, c, who, true);
  }

  /** The inverse of {@link #reserve(long, long, int, long, List, Tenancy)}: preemption, suspension. */
  void vacate(long from, long to, int c, long m, List<GresAlloc> g, Tenancy who) {
    vacate(from, to, c, m, g);
    tenant(from, to, c, who, false);
  }

  private void tenant(long from, long to, int c, Tenancy who, boolean add) {
    if (!who.shares() && users == null) {
      return;
    }
    int start = split(from);
    int end = split(to);
    for (int i = start; i < end; i++) {
      if (who.shares()) {
        shared[i] += add ? c : -c;
      }
      if (users != null) {
        users[i] = add ? withMark(users[i], who.userMark()) : withoutMark(users[i], who.userMark());
      }
    }
  }

  private static int[] withMark(int[] marks, int mark) {
    int[] out = Arrays.copyOf(marks, marks.length + 1);
    out[marks.length] = mark;
    return out;
  }

  private static int[] withoutMark(int[] marks, int mark) {
    for (int k = 0; k < marks.length; k++) {
      if (marks[k] == mark) {
        int[] out = new int[marks.length - 1];
        System.arraycopy(marks, 0, out, 0, k);
        System.arraycopy(marks, k + 1, out, k, marks.length - k - 1);
        return out;
      }
    }
    return marks;
  }

  /** A running job ends at {@code t}: from then on its resources, generic ones too, are free. */
  void release(long t, int c, long m, List<GresAlloc> g) {
    release(t, c, m);
    if (gres != null && !g.isEmpty()) {
      long[] bits = units.bits(g);
      for (int i = split(t); i < size; i++) {
        for (int w = 0; w < bits.length; w++) {
          gres[i][w] &= ~bits[w];
        }
      }
    }
  }

  /** A job planned over [from, to) takes these resources, generic ones too. */
  void reserve(long from, long to, int c, long m, List<GresAlloc> g) {
    reserve(from, to, c, m);
    if (gres != null && !g.isEmpty()) {
      long[] bits = units.bits(g);
      int start = split(from);
      int end = split(to);
      for (int i = start; i < end; i++) {
        for (int w = 0; w < bits.length; w++) {
          gres[i][w] |= bits[w];
        }
      }
    }
  }

  /**
   * A job that holds these resources over [from, to) gives them up (preemption, suspension): the
   * inverse of {@link #reserve(long, long, int, long, List)}.
   */
  void vacate(long from, long to, int c, long m, List<GresAlloc> g) {
    int start = split(from);
    int end = split(to);
    long[] bits = gres != null && !g.isEmpty() ? units.bits(g) : null;
    for (int i = start; i < end; i++) {
      cpus[i] += c;
      mem[i] += m;
      jobs[i]--;
      for (int w = 0; bits != null && w < bits.length; w++) {
        gres[i][w] &= ~bits[w];
      }
    }
  }

  /** Generic resource units for the needs free over the whole of [from, to), or null. */
  List<GresAlloc> pickGres(long from, long to, List<GresCount> needs) {
    if (needs.isEmpty()) {
      return List.of();
    }
    if (gres == null) {
      return null;
    }
    long[] busy = new long[units.words()];
    for (int i = segmentAt(from); i < size && times[i] < to; i++) {
      for (int w = 0; w < busy.length; w++) {
        busy[w] |= gres[i][w];
      }
    }
    return units.pick(busy, needs);
  }

  /** A running job ends at {@code t}: from then on its resources are free. */
  void release(long t, int c, long m) {
    for (int i = split(t); i < size; i++) {
      cpus[i] += c;
      mem[i] += m;
      jobs[i]--;
    }
  }

  /** A job planned over [from, to) takes these resources. */
  void reserve(long from, long to, int c, long m) {
    int start = split(from);
    int end = split(to); // after the first split, which may shift later segments
    for (int i = start; i < end; i++) {
      cpus[i] -= c;
      mem[i] -= m;
      jobs[i]++;
    }
  }

  /** Whether a job needing {@code c} CPUs and {@code m} MB (whole node if exclusive) fits over [from, to). */
  boolean fits(long from, long to, int c, long m, Tenancy who) {
    for (int i = segmentAt(from); i < size && times[i] < to; i++) {
      if (!fitsIn(i, c, m, who)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether nothing at all is free now (the first step) for a job that does not share: stays so
   * for the rest of the pass.
   */
  boolean fullNow() {
    return cpus[0] <= 0 || mem[0] <= 0;
  }

  /** Fewest CPUs free for {@code who} at any time in [from, to) (0 where its users may not come). */
  int minCpus(long from, long to, Tenancy who) {
    int min = Integer.MAX_VALUE;
    for (int i = segmentAt(from); i < size && times[i] < to; i++) {
      min = Math.min(min, usersAllow(i, who) ? room(i, who) : 0);
    }
    return min;
  }

  /** Least memory free at any time in [from, to). */
  long minMem(long from, long to) {
    long min = Long.MAX_VALUE;
    for (int i = segmentAt(from); i < size && times[i] < to; i++) {
      min = Math.min(min, mem[i]);
    }
    return min;
  }

  /**
   * The earliest time T in [from, latest] when the job fits over [T, T + duration), or -1.
   * Candidate times are {@code from} and the starts of later segments (where something freed).
   */
  long earliestFit(long from, long latest, long duration, int c, long m, Tenancy who) {
    return earliestFit(from, latest, duration, c, m, who, List.of());
  }

  /** As above, with generic resources that must stay free over the whole span. */
  long earliestFit(long from, long latest, long duration, int c, long m, Tenancy who,
      List<GresCount> needs) {
    if (latest < from) {
      return -1;
    }
    int i = segmentAt(from);
    long start = from;
    while (start <= latest) {
      int k = i;
      boolean ok = true;
      while (k < size && times[k] < start + duration) {
        if (!fitsIn(k, c, m, who)) {
          ok = false;
          break;
        }
        k++;
      }
      if (ok && (needs.isEmpty() || pickGres(start, start + duration, needs) != null)) {
        return start;
      }
      if (ok) { // CPUs and memory fit but not the generic resources: try when the next step begins
        k = segmentAt(start);
      }
      if (k + 1 >= size) {
        return -1; // the last segment lasts for ever and does not fit
      }
      i = k + 1;
      start = times[i];
    }
    return -1;
  }

  /** From when on nothing known holds any of this node: the last step. */
  long idleFrom() {
    return times[size - 1];
  }

  /** The first time after {@code after} when something is freed here, or Long.MAX_VALUE. */
  long nextRelease(long after) {
    for (int i = segmentAt(after) + 1; i < size; i++) {
      if (cpus[i] > cpus[i - 1] || mem[i] > mem[i - 1] || jobs[i] < jobs[i - 1] || gresFreed(i)) {
        return times[i];
      }
    }
    return Long.MAX_VALUE;
  }

  private boolean gresFreed(int i) {
    if (gres == null) {
      return false;
    }
    for (int w = 0; w < gres[i].length; w++) {
      if ((gres[i - 1][w] & ~gres[i][w]) != 0) {
        return true;
      }
    }
    return false;
  }

  private boolean fitsIn(int i, int c, long m, Tenancy who) {
    if (!usersAllow(i, who)) {
      return false;
    }
    if (who.exclusive()) {
      return jobs[i] == 0 && cpus[i] == totalCpus;
    }
    return room(i, who) >= c && mem[i] >= m;
  }

  /** CPUs a job may take in segment i: free ones, or for a sharing job those within its limit. */
  private int room(int i, Tenancy who) {
    if (!who.shares()) {
      return cpus[i];
    }
    int unshared = cpus[i] + shared[i]; // the CPUs no job that does not share holds
    return (int) Math.min(unshared, Math.max(0, (long) who.shareLimit() * unshared - shared[i]));
  }

  /** Whether the users of the jobs holding the node in segment i let {@code who}'s job come. */
  private boolean usersAllow(int i, Tenancy who) {
    if (users == null) {
      return true;
    }
    for (int mark : users[i]) {
      if (!who.livesWith(mark)) {
        return false;
      }
    }
    return true;
  }

  /** The segment holding time t (t at or after the first segment's start). */
  private int segmentAt(long t) {
    if (size == 1 || t < times[1]) {
      return 0; // most questions are about the first step
    }
    int i = Arrays.binarySearch(times, 0, size, t);
    return i >= 0 ? i : Math.max(0, -i - 2);
  }

  /** Makes t a segment boundary; returns the index of the segment starting at t. */
  private int split(long t) {
    int i = Arrays.binarySearch(times, 0, size, t);
    if (i >= 0) {
      return i;
    }
    int at = -i - 1;
    if (at == 0) {
      return 0; // before now: treated as now
    }
    if (size == times.length) {
      int n = size * 2;
      times = Arrays.copyOf(times, n);
      cpus = Arrays.copyOf(cpus, n);
      mem = Arrays.copyOf(mem, n);
      jobs = Arrays.copyOf(jobs, n);
      shared = Arrays.copyOf(shared, n);
      if (users != null) {
        users = Arrays.copyOf(users, n);
      }
      if (gres != null) {
        gres = Arrays.copyOf(gres, n);
      }
    }
    System.arraycopy(times, at, times, at + 1, size - at);
    System.arraycopy(cpus, at, cpus, at + 1, size - at);
    System.arraycopy(mem, at, mem, at + 1, size - at);
    System.arraycopy(jobs, at, jobs, at + 1, size - at);
    System.arraycopy(shared, at, shared, at + 1, size - at);
    if (users != null) {
      System.arraycopy(users, at, users, at + 1, size - at);
      users[at] = users[at - 1]; // marks arrays are never changed in place
    }
    if (gres != null) {
      System.arraycopy(gres, at, gres, at + 1, size - at);
      gres[at] = gres[at - 1].clone();
    }
    times[at] = t;
    cpus[at] = cpus[at - 1];
    mem[at] = mem[at - 1];
    jobs[at] = jobs[at - 1];
    shared[at] = shared[at - 1];
    size++;
    return at;
  }
}

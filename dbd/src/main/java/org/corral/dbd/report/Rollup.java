package org.corral.dbd.report;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.dbd.report.UsageStore.Changes;
import org.corral.dbd.report.UsageStore.Cpus;
import org.corral.dbd.report.UsageStore.Marks;
import org.corral.dbd.report.UsageStore.Span;
import org.corral.dbd.storage.JobSelection;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.NodeEventStore;
import org.corral.dbd.storage.ReservationStore;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.NodeEvent;
import org.corral.protocol.msg.ResvPeriod;

/**
 * The usage rollup, as Slurm's slurmdbd does it: every hour that has ended is summed from the
 * job records (allocated CPU time per association and for the cluster, the time eligible jobs
 * waited as planned, the CPU time of nodes down, drained or failed from the node events, the CPU
 * time of MAINT reservations as planned down, the rest of the cluster's CPUs idle), every day that has ended from its
 * hours, every month from its days. Job records stored since the last rollup (a late record,
 * a job that ended) make the hours from their submission on be summed again; a period summed
 * again replaces its rows, so rolling up twice gives the same rows.
 */
public final class Rollup {
  private static final int PAGE = 5000;

  private final UsageStore store;
  private final JobStore jobs;
  private final NodeEventStore nodeEvents;
  private final ReservationStore reservations;
  private final UsageCalendar calendar;

  Rollup(UsageStore store, JobStore jobs, NodeEventStore nodeEvents, ReservationStore reservations,
      UsageCalendar calendar) {
    this.store = store;
    this.jobs = jobs;
    this.nodeEvents = nodeEvents;
    this.reservations = reservations;
    this.calendar = calendar;
  }

  /** Rolls up {@code cluster} through the last hour that ended before {@code now}. */
  public synchronized void run(String cluster, long now) throws SQLException {
    long currentHour = calendar.hourOf(now);
    Marks marks;
    Changes changes;
    try (Connection c = store.database().connection()) {
      marks = store.marks(c, cluster);
      changes = store.changedSince(c, cluster, marks == null ? 0 : marks.eventsThrough());
    }
    List<Cpus> cpus = store.cpus(cluster);
    long from;
    if (marks == null) {
      long first = Long.MAX_VALUE;
      if (changes.earliestSubmit() >= 0) {
        first = changes.earliestSubmit();
      }
      if (!cpus.isEmpty()) {
        first = Math.min(first, cpus.get(0).since());
      }
      if (first == Long.MAX_VALUE) {
        return; // nothing known yet
      }
      from = calendar.hourOf(first);
    } else {
      from = marks.hourThrough();
      if (changes.earliestSubmit() >= 0) {
        from = Math.min(from, calendar.hourOf(changes.earliestSubmit()));
      }
    }
    if (from >= currentHour && marks != null && changes.eventsThrough() == marks.eventsThrough()) {
      return; // no hour ended and no record changed
    }
    from = Math.min(from, currentHour);
    Map<Long, Usage> hours = hours(cluster, cpus, from, currentHour);
    long dayFrom = marks == null ? calendar.dayOf(from) : Math.min(marks.dayThrough(), calendar.dayOf(from));
    long dayTo = calendar.dayOf(currentHour);
    long monthFrom = marks == null ? calendar.monthOf(from) : Math.min(marks.monthThrough(), calendar.monthOf(dayFrom));
    long monthTo = calendar.monthOf(dayTo);
    try (Connection c = store.database().connection()) {
      c.setAutoCommit(false);
      try {
        store.replace(c, cluster, Span.HOUR, from, currentHour, hours);
        if (dayFrom < dayTo) {
          Map<Long, Usage> byHour = store.read(c, cluster, Span.HOUR, dayFrom, dayTo);
          store.replace(c, cluster, Span.DAY, dayFrom, dayTo, group(byHour, calendar::dayOf));
        }
        if (monthFrom < monthTo) {
          Map<Long, Usage> byDay = store.read(c, cluster, Span.DAY, monthFrom, monthTo);
          store.replace(c, cluster, Span.MONTH, monthFrom, monthTo, group(byDay, calendar::monthOf));
        }
        store.saveMarks(c, cluster, new Marks(currentHour, Math.max(dayTo, dayFrom), Math.max(monthTo, monthFrom),
            changes.eventsThrough()), marks != null);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private static Map<Long, Usage> group(Map<Long, Usage> periods, java.util.function.LongUnaryOperator key) {
    Map<Long, Usage> out = new TreeMap<>();
    periods.forEach((t, u) -> out.computeIfAbsent(key.applyAsLong(t), k -> new Usage()).add(u));
    return out;
  }

  /** The hours in [from, to), summed from the job records that overlap them. */
  Map<Long, Usage> hours(String cluster, List<Cpus> cpus, long from, long to) throws SQLException {
    Map<Long, Usage> out = new TreeMap<>();
    if (from >= to) {
      return out;
    }
    for (long h = from; h < to; h = calendar.nextHour(h)) {
      Usage u = new Usage();
      long end = calendar.nextHour(h);
      for (int i = 0; i < cpus.size(); i++) {
        long since = cpus.get(i).since();
        long until = i + 1 < cpus.size() ? cpus.get(i + 1).since() : Long.MAX_VALUE;
        long secs = UsageCalendar.overlap(since, until, h, end);
        if (secs > 0) {
          u.total += secs * cpus.get(i).cpus();
          u.cpus = Math.max(u.cpus, cpus.get(i).cpus());
        }
      }
      out.put(h, u);
    }
    JobSelection sel = new JobSelection().where("cluster = ?", cluster).where("submit_time < ?", to)
        .where("(end_time = 0 OR end_time > ?)", from);
    JobStore.Cursor after = null;
    while (true) {
      List<AcctJob> page = jobs.find(sel, after, PAGE);
      for (AcctJob j : page) {
        add(out, j, from, to);
      }
      if (page.size() < PAGE) {
        break;
      }
      AcctJob last = page.get(page.size() - 1);
      after = JobStore.Cursor.after(last);
    }
    List<ResvPeriod> maint = reservations.overlapping(cluster, from, to).stream()
        .filter(r -> r.getFlagsList().contains("MAINT")).toList();
    for (ResvPeriod r : maint) { // Slurm: a maintenance reservation's CPU time is planned down
      add(out, r.getTimeStart(), r.getTimeEnd(), Integer.toUnsignedLong(r.getCpus()), from, to, true);
    }
    for (NodeEvent e : nodeEvents.overlapping(cluster, from, to)) {
      addDown(out, e, maint, from, to);
    }
    out.values().forEach(Usage::settle);
    return out;
  }

  /**
   * A node event's CPU time in each hour of [from, to), as Slurm's rollup counts it: down (down,
   * drained or failed nodes), or planned down for a node FUTURE or powered down; an event with
   * the MAINT flag is left out, and so is its time inside a MAINT reservation holding the node
   * (the reservation's planned down time has it already).
   */
  private void addDown(Map<Long, Usage> hours, NodeEvent e, List<ResvPeriod> maint, long from, long to) {
    if ((e.getState() & NodeEvents.FLAG_MAINT) != 0) {
      return;
    }
    boolean planned = (e.getState() & NodeEvents.BASE) == NodeEvents.FUTURE
        || (e.getState() & NodeEvents.FLAG_POWERED_DOWN) != 0;
    long cpus = NodeEvents.cpus(e.getTres());
    List<long[]> pieces = new java.util.ArrayList<>();
    pieces.add(new long[] {e.getTimeStart(), e.getTimeEnd() > 0 ? e.getTimeEnd() : Long.MAX_VALUE});
    for (ResvPeriod r : maint) {
      if (!org.corral.common.Hostlist.expand(r.getNodes()).contains(e.getNode())) {
        continue;
      }
      List<long[]> left = new java.util.ArrayList<>();
      for (long[] p : pieces) { // p less [r.start, r.end)
        if (r.getTimeStart() > p[0]) {
          left.add(new long[] {p[0], Math.min(p[1], r.getTimeStart())});
        }
        if (r.getTimeEnd() < p[1]) {
          left.add(new long[] {Math.max(p[0], r.getTimeEnd()), p[1]});
        }
      }
      pieces = left;
    }
    for (long[] p : pieces) {
      if (p[0] < p[1]) {
        add(hours, p[0], p[1], cpus, from, to, planned);
      }
    }
  }

  /** {@code cpus} over [start, end) into each hour of [from, to): down, or planned down. */
  private void add(Map<Long, Usage> hours, long start, long end, long cpus, long from, long to, boolean planned) {
    long b = Math.min(end, to);
    for (long h = calendar.hourOf(Math.max(start, from)); h < b; h = calendar.nextHour(h)) {
      long secs = UsageCalendar.overlap(start, end, h, calendar.nextHour(h));
      Usage u = hours.get(h);
      if (u != null && secs > 0) {
        if (planned) {
          u.plannedDown += secs * cpus;
        } else {
          u.down += secs * cpus;
        }
      }
    }
  }

  static String userOf(AcctJob j) {
    return j.getUserName().isEmpty() ? Integer.toUnsignedString(j.getUserId()) : j.getUserName();
  }

  /** A job's allocated and planned CPU time in each hour of [from, to). */
  private void add(Map<Long, Usage> hours, AcctJob j, long from, long to) {
    long end = j.getEndTime() > 0 ? j.getEndTime() : Long.MAX_VALUE;
    if (j.getStartTime() > 0) {
      long a = Math.max(j.getStartTime(), from);
      long b = Math.min(end, to);
      for (long h = calendar.hourOf(a); h < b; h = calendar.nextHour(h)) {
        long secs = UsageCalendar.overlap(j.getStartTime(), end, h, calendar.nextHour(h));
        Usage u = hours.get(h);
        if (u != null && secs > 0) {
          u.alloc += secs * j.getNumCpus();
          if (!j.getAccount().isEmpty()) { // no association, no association usage (as in Slurm)
            u.addAssoc(j.getAccount(), userOf(j), secs * j.getNumCpus());
          }
        }
      }
    }
    // Planned: eligible and waiting (Slurm's reserved time), at the CPUs it asked for.
    if (j.getEligibleTime() > 0) {
      long waitEnd = j.getStartTime() > 0 ? j.getStartTime() : end;
      long a = Math.max(j.getEligibleTime(), from);
      long b = Math.min(waitEnd, to);
      long reqCpus = j.getReqCpus() > 0 ? j.getReqCpus() : j.getNumCpus();
      if (!j.getArrayTasks().isEmpty()) { // an array's tasks still pending wait each (Slurm: array_task_pending)
        reqCpus *= Math.max(1, org.corral.common.ArrayTasks.fromString(j.getArrayTasks()).count());
      }
      for (long h = a < b ? calendar.hourOf(a) : b; h < b; h = calendar.nextHour(h)) {
        long secs = UsageCalendar.overlap(j.getEligibleTime(), waitEnd, h, calendar.nextHour(h));
        Usage u = hours.get(h);
        if (u != null && secs > 0) {
          u.planned += secs * reqCpus;
        }
      }
    }
  }
}

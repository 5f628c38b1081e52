package org.corral.dbd.report;

import java.util.Map;
import java.util.TreeMap;

/**
 * One period's usage on one cluster, in CPU-seconds: the cluster's totals and each (account,
 * user) association's allocated time. Added up period by period for longer ones.
 */
final class Usage {
  /** An association: the account and the user who ran there. */
  record Assoc(String account, String user) implements Comparable<Assoc> {
    @Override
    public int compareTo(Assoc o) {
      int c = account.compareTo(o.account);
      return c != 0 ? c : user.compareTo(o.user);
    }
  }

  long cpus;
  long alloc;
  long down;
  long plannedDown;
  long idle;
  long planned;
  long over;
  long total;
  final Map<Assoc, Long> assocs = new TreeMap<>();

  /** Whether the period has anything to keep: a registered cluster or some use. */
  boolean isEmpty() {
    return total == 0 && alloc == 0 && planned == 0 && assocs.isEmpty();
  }

  void addAssoc(String account, String user, long secs) {
    if (secs > 0) {
      assocs.merge(new Assoc(account, user), secs, Long::sum);
    }
  }

  /** Adds a shorter period's usage (a day's hours, a month's days). */
  void add(Usage u) {
    cpus = Math.max(cpus, u.cpus);
    alloc += u.alloc;
    down += u.down;
    plannedDown += u.plannedDown;
    idle += u.idle;
    planned += u.planned;
    over += u.over;
    total += u.total;
    u.assocs.forEach((k, v) -> assocs.merge(k, v, Long::sum));
  }

  /**
   * Settles an hour as Slurm's hourly rollup does: what is allocated or down never exceeds what
   * the cluster had (the excess is over-commit), idle is the rest less the planned time, and
   * planned time that does not fit is dropped into over-commit.
   */
  void settle() {
    long used = alloc + down + plannedDown;
    if (used > total) {
      over += used - total;
      alloc = Math.max(0, total - down - plannedDown);
      used = alloc + down + plannedDown;
    }
    idle = total - used - planned;
    if (idle < 0) {
      planned += idle;
      over -= idle;
      idle = 0;
      if (planned < 0) {
        planned = 0;
      }
    }
  }
}

package org.corral.ctld.sched;

import java.util.List;
import org.corral.protocol.msg.ReservationInfo;

/**
 * Who may run in a reservation: Users= names them (or, with "-name" entries, everyone but them),
 * Accounts= likewise for the job's account; when both are given a job must satisfy both. Being
 * root or an administrator does not count: Slurm 22.05 refuses root a reservation for others.
 */
public final class ReservationAccess {
  private ReservationAccess() {}

  public static boolean allows(ReservationInfo r, String user, String account) {
    return matches(r.getUsersList(), user) && matches(r.getAccountsList(), account);
  }

  /** An empty list lets everyone in; "-x" entries exclude x; plain entries admit only themselves. */
  private static boolean matches(List<String> list, String name) {
    if (list.isEmpty()) {
      return true;
    }
    boolean excluding = list.get(0).startsWith("-");
    return excluding ? !list.contains("-" + name) : list.contains(name);
  }
}

package org.corral.ctld.sched;

import java.util.Locale;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * How a job holds its nodes besides its CPUs and memory: whole ({@code --exclusive}); sharing
 * its CPUs with other sharing jobs, at most {@code shareLimit} jobs on a CPU (partition
 * OverSubscribe=YES:N with {@code -s}, or FORCE:N); and keeping other users' jobs off its nodes
 * ({@code --exclusive=user}, ExclusiveUser=YES).
 */
record Tenancy(boolean exclusive, int shareLimit, int user, boolean userExclusive) {
  /** A job of no user that neither shares nor excludes (reservations, resumed CPUs). */
  static final Tenancy PLAIN = new Tenancy(false, 1, -1, false);

  /** Slurm's count when OverSubscribe=YES or FORCE gives none. */
  static final int DEFAULT_SHARE_LIMIT = 4;

  static Tenancy of(JobInfo j, PartitionInfo p) {
    return of(j, p == null ? "" : p.getOversubscribe());
  }

  static Tenancy of(JobInfo j, String oversubscribe) {
    int limit = j.getOversubscribe() && !j.getExclusive() ? shareLimit(oversubscribe) : 1;
    return new Tenancy(j.getExclusive(), limit, j.getUserId(), j.getExclusiveUser());
  }

  /**
   * Jobs a CPU may hold in a partition with this OverSubscribe word: N for YES:N and FORCE:N (4
   * without a count), 1 otherwise.
   */
  static int shareLimit(String oversubscribe) {
    String w = oversubscribe.toUpperCase(Locale.ROOT);
    if (!w.startsWith("YES") && !w.startsWith("FORCE")) {
      return 1;
    }
    int colon = w.indexOf(':');
    return colon < 0 ? DEFAULT_SHARE_LIMIT : Math.max(1, Integer.parseInt(w.substring(colon + 1).trim()));
  }

  boolean shares() {
    return shareLimit > 1;
  }

  /** The same job kept to CPUs no job holds (Slurm fills idle CPUs before it shares any). */
  Tenancy alone() {
    return new Tenancy(exclusive, 1, user, userExclusive);
  }

  /**
   * How a timeline records this job among a node's users: its uid, complemented when it keeps
   * other users off the node.
   */
  int userMark() {
    return userExclusive ? ~user : user;
  }

  /** Whether a node holding a job with this mark may take this job too. */
  boolean livesWith(int mark) {
    int other = mark < 0 ? ~mark : mark;
    return other == user || (mark >= 0 && !userExclusive);
  }
}

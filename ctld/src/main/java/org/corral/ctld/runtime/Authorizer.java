package org.corral.ctld.runtime;

import java.util.function.Supplier;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.JobInfo;

/**
 * Who may do what: users act on their own jobs; root, SlurmUser, the daemons and, with
 * accounting, users whose AdminLevel is Operator or Administrator on anything; an account's
 * coordinators on the jobs charged to it or to an account below it.
 */
final class Authorizer {
  private static final int OPERATOR = 2; // AcctUser.admin_level: 1 None, 2 Operator, 3 Administrator
  private static final int ADMINISTRATOR = 3;

  private final int slurmUserUid;
  private final Supplier<AssocTree> accounting;

  Authorizer(int slurmUserUid) {
    this(slurmUserUid, () -> AssocTree.NONE);
  }

  /** @param accounting the associations and users slurmdbd last gave (AdminLevel, coordinators) */
  Authorizer(int slurmUserUid, Supplier<AssocTree> accounting) {
    this.slurmUserUid = slurmUserUid;
    this.accounting = accounting;
  }

  boolean isAdmin(Peer p) {
    return p.isDaemon() || p.uid() == 0 || p.uid() == slurmUserUid
        || user(p).map(u -> u.getAdminLevel() >= OPERATOR).orElse(false);
  }

  /**
   * Slurm's super user: root, SlurmUser, a daemon, or AdminLevel Administrator (not Operator). Only
   * they reconfigure and change partitions.
   */
  boolean isSuperUser(Peer p) {
    return p.isDaemon() || p.uid() == 0 || p.uid() == slurmUserUid
        || user(p).map(u -> u.getAdminLevel() >= ADMINISTRATOR).orElse(false);
  }

  /** root or SlurmUser (a daemon counts as SlurmUser): never rate limited, as in Slurm. */
  boolean isRootOrSlurmUser(Peer p) {
    int uid = userOf(p);
    return uid == 0 || uid == slurmUserUid;
  }

  /** The user a request counts for: a daemon's are SlurmUser's, as Slurm's daemons run as it. */
  int userOf(Peer p) {
    return p.isDaemon() ? slurmUserUid : p.uid();
  }

  boolean mayActOnJob(Peer p, JobInfo job) {
    return isAdmin(p) || p.uid() == job.getUserId() || coordinates(p, job);
  }

  /** Whether the peer coordinates the job's account or one above it. */
  private boolean coordinates(Peer p, JobInfo job) {
    java.util.Optional<AcctUser> u = user(p);
    if (u.isEmpty() || u.get().getCoordAccountsCount() == 0 || job.getAccount().isEmpty()) {
      return false;
    }
    AssocTree tree = accounting.get();
    java.util.Optional<AcctAssoc> assoc = tree.assoc(job.getUserName(), job.getAccount(), job.getPartition());
    if (assoc.isEmpty()) {
      return u.get().getCoordAccountsList().contains(job.getAccount());
    }
    return tree.chain(assoc.get()).stream().anyMatch(a -> a.getUser().isEmpty()
        && u.get().getCoordAccountsList().contains(a.getAccount()));
  }

  private java.util.Optional<AcctUser> user(Peer p) {
    return p.userName() == null ? java.util.Optional.empty() : accounting.get().user(p.userName());
  }
}

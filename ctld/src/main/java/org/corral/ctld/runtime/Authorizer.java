package org.corral.ctld.runtime;

import java.util.function.Supplier;
import org.corral.common.config.PrivateData;
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
  private final PrivateData privateData;

  Authorizer(int slurmUserUid) {
    this(slurmUserUid, () -> AssocTree.NONE, PrivateData.NONE);
  }

  Authorizer(int slurmUserUid, Supplier<AssocTree> accounting) {
    this(slurmUserUid, accounting, PrivateData.NONE);
  }

  /**
   * @param accounting the associations and users slurmdbd last gave (AdminLevel, coordinators)
   * @param privateData what slurm.conf's PrivateData hides from plain users
   */
  Authorizer(int slurmUserUid, Supplier<AssocTree> accounting, PrivateData privateData) {
    this.slurmUserUid = slurmUserUid;
    this.accounting = accounting;
    this.privateData = privateData;
  }

  PrivateData privateData() {
    return privateData;
  }

  /** Whether the peer may see the job (and its steps): anyone, unless PrivateData=jobs. */
  boolean maySeeJob(Peer p, JobInfo job) {
    return !privateData.jobs() || mayActOnJob(p, job);
  }

  /** {@link #maySeeJob} for many jobs: the peer's rights looked up once, not per job (squeue over a large queue). */
  java.util.function.Predicate<JobInfo> jobsVisibleTo(Peer p) {
    if (!privateData.jobs() || isAdmin(p)) {
      return j -> true;
    }
    boolean coordinator = user(p).map(u -> u.getCoordAccountsCount() > 0).orElse(false);
    return j -> p.uid() == j.getUserId() || (coordinator && coordinates(p, j));
  }

  /** Node state: anyone, unless PrivateData=nodes (then operators, root and SlurmUser). */
  boolean maySeeNodes(Peer p) {
    return !privateData.nodes() || isAdmin(p);
  }

  /** Partition state: anyone, unless PrivateData=partitions. */
  boolean maySeePartitions(Peer p) {
    return !privateData.partitions() || isAdmin(p);
  }

  /** Whether the peer sees only its own usage (PrivateData=usage): see {@link #coordinated}. */
  boolean usagePrivateTo(Peer p) {
    return privateData.usage() && !isAdmin(p);
  }

  /**
   * Whether the peer sees the reservation: anyone, unless PrivateData=reservations; then
   * operators, and those it admits by name or through one of their accounts.
   */
  boolean maySeeReservation(Peer p, org.corral.protocol.msg.ReservationInfo r) {
    if (!privateData.reservations() || isAdmin(p)) {
      return true;
    }
    String name = p.userName() == null ? "" : p.userName();
    if (r.getAccountsCount() == 0) {
      return org.corral.ctld.sched.ReservationAccess.allows(r, name, "");
    }
    for (AcctAssoc a : accounting.get().snapshot().getAssocsList()) {
      if (a.getUser().equals(name) && org.corral.ctld.sched.ReservationAccess.allows(r, name, a.getAccount())) {
        return true;
      }
    }
    return false;
  }

  /** The accounts the peer coordinates (directly named; those below them count too, by the caller). */
  java.util.List<String> coordinated(Peer p) {
    return user(p).map(AcctUser::getCoordAccountsList).orElse(java.util.List.of());
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

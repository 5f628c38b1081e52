package org.corral.ctld.runtime;

import org.corral.protocol.Peer;

/**
 * Who may do what: users act on their own jobs; root, SlurmUser and the daemons on anything.
 * (AdminLevel from accounting extends the operators later.)
 */
final class Authorizer {
  private final int slurmUserUid;

  Authorizer(int slurmUserUid) {
    this.slurmUserUid = slurmUserUid;
  }

  boolean isAdmin(Peer p) {
    return p.isDaemon() || p.uid() == 0 || p.uid() == slurmUserUid;
  }

  /** The user a request counts for: a daemon's are SlurmUser's, as Slurm's daemons run as it. */
  int userOf(Peer p) {
    return p.isDaemon() ? slurmUserUid : p.uid();
  }

  boolean mayActOnJob(Peer p, int ownerUid) {
    return isAdmin(p) || p.uid() == ownerUid;
  }
}

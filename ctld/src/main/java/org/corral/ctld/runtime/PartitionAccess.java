package org.corral.ctld.runtime;

import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Who may use a partition: RootOnly ones only root (and SlurmUser), AllowGroups ones only
 * members of a listed group (by login group or membership), as Slurm checks at submission.
 * Administrators may use every partition. Users do not see (sinfo) partitions that are Hidden
 * or closed to them unless they ask for all of them.
 */
final class PartitionAccess {
  private final Authorizer auth;
  private final UserDirectory users;

  PartitionAccess(Authorizer auth, UserDirectory users) {
    this.auth = auth;
    this.users = users;
  }

  /** Why the peer may not submit to the partition, or SUCCESS. */
  SlurmError check(Peer peer, PartitionInfo p) {
    if (auth.isAdmin(peer)) {
      return SlurmError.SUCCESS;
    }
    if (p.getRootOnly()) {
      return SlurmError.ACCESS_DENIED;
    }
    return inAllowedGroup(peer, p) ? SlurmError.SUCCESS : SlurmError.JOB_MISSING_REQUIRED_PARTITION_GROUP;
  }

  /** Whether sinfo shows the partition to the peer by default. */
  boolean visible(Peer peer, PartitionInfo p) {
    return auth.isAdmin(peer) || (!p.getHidden() && inAllowedGroup(peer, p));
  }

  private boolean inAllowedGroup(Peer peer, PartitionInfo p) {
    String allowed = p.getAllowGroups();
    if (allowed.isEmpty() || allowed.equalsIgnoreCase("ALL")) {
      return true;
    }
    String user = peer.userName() != null ? peer.userName() : users.userName(peer.uid()).orElse("");
    for (String g : allowed.split(",")) {
      if (users.isMember(user, peer.gid(), g.trim())) {
        return true;
      }
    }
    return false;
  }
}

package org.corral.dbd.assoc;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.Responses;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.AcctUpdateReply;
import org.corral.protocol.msg.AcctUpdateRequest;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TxnQueryReply;
import org.corral.protocol.msg.TxnQueryRequest;

/**
 * slurmdbd's answers to sacctmgr and sshare (local users, identified by the kernel) and to the
 * controller (snapshots, over its signed channel). A refused change is logged with who asked.
 */
public final class AssocService {
  private static final System.Logger LOG = System.getLogger("slurmdbd");

  private final AssocStore store;
  private final int slurmUid;
  private final UserDirectory users;

  public AssocService(AssocStore store, int slurmUid, UserDirectory users) {
    this.store = store;
    this.slurmUid = slurmUid;
    this.users = users;
  }

  public Response snapshot(Peer peer, AssocSnapshotRequest r) throws SQLException {
    if (peer.isDaemon() && !"slurmctld".equals(peer.daemon())) {
      return Responses.error(SlurmError.ACCESS_DENIED, "only the controller asks for associations");
    }
    return Response.newBuilder().setAssocSnapshot(store.snapshot(r.getCluster())).build();
  }

  public Response update(Peer peer, AcctUpdateRequest r) throws SQLException {
    if (peer.isDaemon()) {
      return Responses.error(SlurmError.ACCESS_DENIED, "changes come from local users");
    }
    String name = peer.userName() != null ? peer.userName()
        : users.userName(peer.uid()).orElse(Integer.toString(peer.uid()));
    AssocRules.Actor who = peer.uid() == 0 || peer.uid() == slurmUid
        ? AssocRules.Actor.superUser(name) : new AssocRules.Actor(name, AssocRules.NONE, java.util.Set.of());
    try {
      int n = store.apply(who, r.getChangesList(), r.getCheckOnly());
      return Response.newBuilder().setAcctUpdate(AcctUpdateReply.newBuilder().setApplied(n)).build();
    } catch (AcctException e) {
      if (e.error() == SlurmError.ACCESS_DENIED) {
        LOG.log(Level.WARNING, "sacctmgr: refused uid " + peer.uid() + " (" + name + "): " + e.getMessage());
        return Responses.error(SlurmError.ACCESS_DENIED, SlurmError.ACCESS_DENIED.message());
      }
      return Responses.error(e.error(), e.getMessage());
    }
  }

  /** sacctmgr show transaction: slurmdbd's record of accounting changes, which any user may read. */
  public Response transactions(TxnQueryRequest q) throws SQLException {
    return Response.newBuilder().setTxnQuery(TxnQueryReply.newBuilder().addAllTxns(store.transactions(q))).build();
  }

  /** A user's rights for reading (PrivateData): name, Operator or above, accounts coordinated and below. */
  public record Rights(String name, boolean operator, java.util.Set<String> coordinated) {}

  /** The asking user's rights: root and SlurmUser as Administrators. */
  public Rights rights(Peer peer) throws SQLException {
    String name = peer.userName() != null ? peer.userName() : users.userName(peer.uid()).orElse("");
    if (peer.uid() == 0 || peer.uid() == slurmUid) {
      return new Rights(name, true, java.util.Set.of());
    }
    AssocRules.Actor a = store.actor(name);
    return new Rights(name, a.level() >= AssocRules.OPERATOR, java.util.Set.copyOf(a.coordinated()));
  }

  /** Whether a local user may do what only administrators may: root, SlurmUser, AdminLevel=Administrator. */
  public boolean isAdministrator(Peer peer) throws SQLException {
    if (peer.isDaemon()) {
      return false;
    }
    if (peer.uid() == 0 || peer.uid() == slurmUid) {
      return true;
    }
    String name = peer.userName() != null ? peer.userName() : users.userName(peer.uid()).orElse(null);
    return name != null && store.actor(name).level() >= AssocRules.ADMINISTRATOR;
  }
}

package org.corral.dbd;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import org.corral.common.config.PrivateData;
import org.corral.dbd.assoc.AssocService;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.JobSizeUsage;
import org.corral.protocol.msg.UsageReportReply;

/**
 * What slurmdbd.conf's PrivateData hides from a plain user, as Slurm 22.05's slurmdbd answers
 * (recorded on a reference): others' jobs in sacct (a coordinator sees its accounts' jobs), other
 * users in sacctmgr show user (even from a coordinator), associations it does not deal with
 * (its own, those of the accounts it coordinates, and the accounts above them), accounts it does
 * not coordinate (one who coordinates none is refused), node events, and others' usage in
 * sreport. root, SlurmUser, the daemons and Operators or Administrators see everything.
 */
final class PrivateView {
  /** Who asks: {@code coordinated} holds the accounts it coordinates and every account below them. */
  record Viewer(String name, int uid, boolean privileged, Set<String> coordinated) {
    static final Viewer ALL = new Viewer("", 0, true, Set.of());
  }

  private final PrivateData privateData;
  private final AssocService assoc;

  PrivateView(PrivateData privateData, AssocService assoc) {
    this.privateData = privateData;
    this.assoc = assoc;
  }

  PrivateData privateData() {
    return privateData;
  }

  /** The viewer, looked up in accounting only when something is private. */
  Viewer viewer(Peer peer) throws SQLException {
    if (!privateData.any() || peer.isDaemon()) {
      return Viewer.ALL;
    }
    AssocService.Rights r = assoc.rights(peer);
    return new Viewer(r.name(), peer.uid(), r.operator(), r.coordinated());
  }

  /** PrivateData=jobs: the viewer sees its own jobs and those charged to accounts it coordinates. */
  boolean jobsLimited(Viewer v) {
    return privateData.jobs() && !v.privileged();
  }

  boolean eventsDenied(Viewer v) {
    return privateData.events() && !v.privileged();
  }

  /** The snapshot sacctmgr show reads, less what PrivateData=users,accounts hide from the viewer. */
  AssocSnapshot snapshot(AssocSnapshot all, Viewer v) {
    if (v.privileged() || !(privateData.users() || privateData.accounts())) {
      return all;
    }
    AssocSnapshot.Builder b = all.toBuilder();
    if (privateData.users()) {
      b.clearUsers().clearAssocs();
      for (AcctUser u : all.getUsersList()) {
        if (u.getName().equals(v.name())) {
          b.addUsers(u);
        }
      }
      Set<String> above = new HashSet<>(); // accounts above the associations kept: "cluster/account"
      for (AcctAssoc a : all.getAssocsList()) {
        if (!a.getUser().isEmpty() && (a.getUser().equals(v.name()) || v.coordinated().contains(a.getAccount()))) {
          above.add(a.getCluster() + "/" + a.getAccount());
        }
      }
      for (String acct : v.coordinated()) {
        for (AcctAssoc a : all.getAssocsList()) {
          if (a.getUser().isEmpty() && a.getAccount().equals(acct)) {
            above.add(a.getCluster() + "/" + acct);
          }
        }
      }
      boolean grew = true;
      while (grew) { // up to root
        grew = false;
        for (AcctAssoc a : all.getAssocsList()) {
          if (a.getUser().isEmpty() && above.contains(a.getCluster() + "/" + a.getAccount())
              && !a.getParentAccount().isEmpty()) {
            grew |= above.add(a.getCluster() + "/" + a.getParentAccount());
          }
        }
      }
      for (AcctAssoc a : all.getAssocsList()) {
        boolean keep = a.getUser().isEmpty() ? above.contains(a.getCluster() + "/" + a.getAccount())
            : a.getUser().equals(v.name()) || v.coordinated().contains(a.getAccount());
        if (keep) {
          b.addAssocs(a);
        }
      }
    }
    if (privateData.accounts()) {
      b.clearAccounts();
      for (AcctAccount a : all.getAccountsList()) {
        if (v.coordinated().contains(a.getName())) {
          b.addAccounts(a);
        }
      }
      b.setAccountsDenied(v.coordinated().isEmpty());
    }
    return b.build();
  }

  /** sreport's usage less other users' (PrivateData=usage): own rows, and a coordinator's accounts. */
  UsageReportReply report(UsageReportReply all, Viewer v) {
    if (v.privileged() || !privateData.usage()) {
      return all;
    }
    UsageReportReply.Builder b = all.toBuilder().clearAssocs().clearJobSizes();
    for (AssocUsage u : all.getAssocsList()) {
      if (v.coordinated().contains(u.getAccount()) || (!u.getUser().isEmpty() && u.getUser().equals(v.name()))) {
        b.addAssocs(u);
      }
    }
    for (JobSizeUsage j : all.getJobSizesList()) {
      if (v.coordinated().contains(j.getAccount())) {
        b.addJobSizes(j);
      }
    }
    return b.build();
  }
}

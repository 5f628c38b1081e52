package org.corral.ctld.runtime;

import java.util.Locale;
import java.util.function.Supplier;
import java.util.Set;
import java.util.stream.Collectors;
import org.corral.ctld.sched.priority.ShareTree;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.ShareInfoReply;
import org.corral.protocol.msg.ShareInfoRequest;
import org.corral.protocol.msg.ShareRow;

/**
 * sshare's request: the associations' shares and usage from the scheduler's latest priority pass
 * (published, never waited for), filtered as Slurm's assoc_mgr_get_shares does: user rows of the
 * named users only (case-insensitively), and rows of the named accounts only.
 */
final class ShareRequests {
  private final Supplier<ShareTree> latest;
  private final Authorizer auth;

  /**
   * @param latest the scheduler's latest shares (published by it, read without waiting)
   * @param auth who sees whose usage (PrivateData=usage); null: everyone sees all
   */
  ShareRequests(Supplier<ShareTree> latest, Authorizer auth) {
    this.latest = latest;
    this.auth = auth;
  }

  ShareInfoReply answer(ShareInfoRequest req) {
    return answer(req, latest.get());
  }

  /**
   * As asked by {@code peer}: with PrivateData=usage a plain user sees its own associations' rows
   * only, a coordinator also those of its accounts and everything below them, as in Slurm 22.05.
   */
  ShareInfoReply answer(Peer peer, ShareInfoRequest req) {
    ShareInfoReply all = answer(req, latest.get());
    if (auth == null || !auth.usagePrivateTo(peer)) {
      return all;
    }
    String me = peer.userName() == null ? "" : peer.userName();
    Set<String> below = new java.util.HashSet<>(auth.coordinated(peer)); // grows down the tree, rows in tree order
    ShareInfoReply.Builder b = all.toBuilder().clearRows();
    for (ShareRow r : all.getRowsList()) {
      boolean account = r.getUser().isEmpty();
      if (account && below.contains(r.getParent())) {
        below.add(r.getAccount());
      }
      if (account ? below.contains(r.getAccount()) : r.getUser().equals(me) || below.contains(r.getAccount())) {
        b.addRows(r);
      }
    }
    return b.build();
  }

  static ShareInfoReply answer(ShareInfoRequest req, ShareTree t) {
    Set<String> users = lower(req.getUsersList());
    Set<String> accounts = lower(req.getAccountsList());
    ShareInfoReply.Builder b = ShareInfoReply.newBuilder().setFairTree(t.fairTree());
    for (ShareRow r : t.rows()) {
      if (!users.isEmpty() && !r.getUser().isEmpty() && !users.contains(r.getUser().toLowerCase(Locale.ROOT))) {
        continue;
      }
      if (!accounts.isEmpty() && !accounts.contains(r.getAccount().toLowerCase(Locale.ROOT))) {
        continue;
      }
      b.addRows(r);
    }
    return b.build();
  }

  private static Set<String> lower(java.util.List<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
  }
}

package org.corral.ctld.runtime;

import java.util.Locale;
import java.util.function.Supplier;
import java.util.Set;
import java.util.stream.Collectors;
import org.corral.ctld.sched.priority.ShareTree;
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

  /** @param latest the scheduler's latest shares (published by it, read without waiting) */
  ShareRequests(Supplier<ShareTree> latest) {
    this.latest = latest;
  }

  ShareInfoReply answer(ShareInfoRequest req) {
    return answer(req, latest.get());
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

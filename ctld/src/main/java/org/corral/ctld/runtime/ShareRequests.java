package org.corral.ctld.runtime;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.corral.ctld.sched.priority.ShareBoard;
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
  private ShareRequests() {}

  /** The reply for the cluster that {@code config} (slurm.conf's top-level entries) names. */
  static ShareInfoReply answer(ShareInfoRequest req, Map<String, String> config) {
    String cluster = config.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("ClusterName"))
        .map(Map.Entry::getValue).findFirst().orElse("");
    return answer(req, ShareBoard.latest(cluster));
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

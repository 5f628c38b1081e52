package org.corral.ctld.runtime;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.corral.ctld.sched.LicenseCheck;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.LicenseInfo;
import org.corral.protocol.msg.LicenseInfoReply;
import org.corral.protocol.msg.LicenseInfoRequest;

/**
 * {@code scontrol show licenses} and GET /licenses: the cluster's licenses (slurm.conf
 * Licenses=) by name, as Slurm lists them, with what running jobs use, from the published
 * state (never waiting for the writer).
 */
final class LicenseRequests {
  private final Map<String, Integer> totals;

  LicenseRequests(Map<String, Integer> totals) {
    this.totals = new TreeMap<>(totals);
  }

  LicenseInfoReply answer(LicenseInfoRequest req, ClusterState s) {
    Set<String> names = new HashSet<>(req.getNamesList());
    Map<String, Integer> used = LicenseCheck.inUse(s);
    LicenseInfoReply.Builder b = LicenseInfoReply.newBuilder().setLastUpdate(s.lastUpdate());
    totals.forEach((name, total) -> {
      if (names.isEmpty() || names.contains(name)) {
        b.addLicenses(LicenseInfo.newBuilder().setName(name).setTotal(total)
            .setUsed(used.getOrDefault(name, 0)));
      }
    });
    return b.build();
  }
}

package org.corral.ctld.runtime;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.config.ConfigListing;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.state.ClusterState;

/**
 * scontrol show config's lines as this controller answers them: slurm.conf through
 * {@link ConfigListing}, with what only the running controller knows (its start, the next job id,
 * the users' uids).
 *
 * @param bootTime the controller's start, epoch seconds (the command prints it in its own zone)
 * @param slurmUser SlurmUser as {@code name(uid)}
 */
record ConfigView(SlurmConfig cfg, long bootTime, String slurmUser) {
  List<Map.Entry<String, String>> lines(ClusterState s) {
    Map<String, String> derived = new HashMap<>();
    derived.put("BOOT_TIME", Long.toString(bootTime));
    derived.put("NEXT_JOB_ID", Integer.toString(s.nextJobId()));
    derived.put("SlurmUser", slurmUser);
    derived.put("SlurmdUser", "root(0)"); // slurmd runs as root: it starts jobs as their users
    return ConfigListing.of(cfg, derived);
  }
}

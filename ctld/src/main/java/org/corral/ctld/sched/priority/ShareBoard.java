package org.corral.ctld.sched.priority;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the scheduler thread publishes each cluster's latest {@link ShareTree} for sshare's
 * requests: a reference swap, so readers never wait for the scheduler nor the writer thread.
 * Keyed by cluster name (the associations' cluster), one controller per cluster in a process.
 */
public final class ShareBoard {
  private static final Map<String, ShareTree> LATEST = new ConcurrentHashMap<>();

  private ShareBoard() {}

  static void publish(ShareTree t) {
    LATEST.put(t.cluster(), t);
  }

  /** The latest shares of the cluster; empty before the first priority pass with associations. */
  public static ShareTree latest(String cluster) {
    return LATEST.getOrDefault(cluster, ShareTree.EMPTY);
  }
}

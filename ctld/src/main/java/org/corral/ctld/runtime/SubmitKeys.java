package org.corral.ctld.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobRecord;

/**
 * Submissions' idempotency keys ({@code JobSpec.submit_key}): which job a user's key made, so that
 * a submission retried across a takeover is answered with that job instead of a second one.
 *
 * <p>The keys live in the jobs' specs (replicated state); this is an index over them, rebuilt
 * from the state when a controller starts serving and kept by the writer thread (only), bounded to
 * the newest {@value #MAX_KEYS} keys: retries come within seconds, and a purged job's key is
 * forgotten with it.
 */
final class SubmitKeys {
  private static final int MAX_KEYS = 100_000;

  private record Key(int uid, String key) {}

  private final Map<Key, Integer> jobs = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Integer> eldest) {
      return size() > MAX_KEYS;
    }
  };

  /** The index over what {@code s} holds. */
  static SubmitKeys of(ClusterState s) {
    SubmitKeys k = new SubmitKeys();
    for (JobRecord r : s.jobs().values()) {
      String key = r.getSpec().getSubmitKey();
      if (!key.isEmpty()) {
        k.jobs.put(new Key(r.getInfo().getUserId(), key), r.getInfo().getJobId());
      }
    }
    return k;
  }

  /** The job the user's key made, if it is still in {@code s} (writer thread). */
  Integer find(ClusterState s, int uid, String key) {
    Integer id = jobs.get(new Key(uid, key));
    if (id == null) {
      return null;
    }
    JobRecord r = s.jobs().get(id);
    return r != null && r.getSpec().getSubmitKey().equals(key) ? id : null;
  }

  /** Notes the job a key made (writer thread, in the decision that makes it). */
  void remember(int uid, String key, int jobId) {
    jobs.put(new Key(uid, key), jobId);
  }
}

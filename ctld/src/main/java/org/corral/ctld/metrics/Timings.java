package org.corral.ctld.metrics;

import org.corral.protocol.metrics.Histogram;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The controller's durations that a site's exporter cannot see from outside and Corral's
 * endpoint serves: scheduling passes (all, and those that planned jobs ahead: backfill), each
 * RPC by message type, RPC counts and time by user, and the journal's write-and-fdatasync.
 * Recording is lock-free; the maps grow only by message type and by user.
 */
public final class Timings {
  private final Histogram schedulerPass = new Histogram();
  private final Histogram backfillPass = new Histogram();
  private final Histogram journalSync = new Histogram();
  private final Map<String, Histogram> rpcByType = new ConcurrentHashMap<>();
  private final Map<Integer, LongAdder[]> rpcByUser = new ConcurrentHashMap<>();

  public void schedulerPass(long nanos, boolean backfill) {
    schedulerPass.record(nanos);
    if (backfill) {
      backfillPass.record(nanos);
    }
  }

  public void journalSync(long nanos) {
    journalSync.record(nanos);
  }

  public void rpc(String type, int uid, long nanos) {
    rpcByType.computeIfAbsent(type, k -> new Histogram()).record(nanos);
    LongAdder[] u = rpcByUser.computeIfAbsent(uid, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
    u[0].increment();
    u[1].add(nanos);
  }

  Histogram.Snapshot schedulerPass() {
    return schedulerPass.snapshot();
  }

  Histogram.Snapshot backfillPass() {
    return backfillPass.snapshot();
  }

  Histogram.Snapshot journalSync() {
    return journalSync.snapshot();
  }

  /** Per message type, sorted by name. */
  Map<String, Histogram.Snapshot> rpcByType() {
    Map<String, Histogram.Snapshot> out = new TreeMap<>();
    rpcByType.forEach((k, v) -> out.put(k, v.snapshot()));
    return out;
  }

  /** Per uid: {requests, nanoseconds}, sorted by uid. */
  Map<Integer, long[]> rpcByUser() {
    Map<Integer, long[]> out = new TreeMap<>();
    rpcByUser.forEach((k, v) -> out.put(k, new long[] {v[0].sum(), v[1].sum()}));
    return out;
  }
}

package org.corral.ctld.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.corral.ctld.runtime.StateWriter;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;

/**
 * When each accounting event still waiting for slurmdbd entered the outbox, so that a scrape can
 * tell the age of the oldest (what a site alarms on when slurmdbd is away). Events are not
 * timestamped in the state: this watches the writer and notes the time of each batch of new
 * event ids; events recovered at start-up count from then.
 */
public final class OutboxAge implements StateWriter.Observer {
  private final LongSupplier millis;
  /** First event id of each batch that entered → when (epoch ms). */
  private final TreeMap<Long, Long> entered = new TreeMap<>();

  public OutboxAge(ClusterState recovered, LongSupplier millis) {
    this.millis = millis;
    recovered.outbox().events().keySet().stream().findFirst()
        .ifPresent(id -> entered.put(id, millis.getAsLong()));
  }

  @Override
  public synchronized void applied(ClusterState before, ClusterState after, Command c) {
    long was = before.outbox().nextEventId();
    if (after.outbox().nextEventId() > was) {
      entered.put(was, millis.getAsLong());
    }
    if (after.outbox().events().size() < before.outbox().events().size()) {
      Long oldest = after.outbox().events().isEmpty() ? null : after.outbox().events().firstKey();
      if (oldest == null) {
        entered.clear();
      } else {
        Long floor = entered.floorKey(oldest);
        if (floor != null) {
          entered.headMap(floor).clear();
        }
      }
    }
  }

  /** Seconds since the oldest waiting event entered the outbox; 0 when none waits. */
  synchronized double oldestSeconds(ClusterState s) {
    if (s.outbox().events().isEmpty()) {
      return 0;
    }
    Map.Entry<Long, Long> e = entered.floorEntry(s.outbox().events().firstKey());
    return e == null ? 0 : Math.max(0, millis.getAsLong() - e.getValue()) / 1000.0;
  }
}

package org.corral.ctld.state;

import java.util.List;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.NodeEvent;
import org.pcollections.TreePMap;

/**
 * Accounting events slurmdbd has not stored yet, in event id order. They are part of the
 * controller's state, so the journal and snapshots keep them: an event leaves only when
 * slurmdbd says it is durable ({@link Command.AcctShipped}), however long it is away.
 *
 * @param events the waiting events by id
 * @param nextEventId the id the next event gets (ids rise by one and are never reused)
 */
public record AcctOutbox(TreePMap<Long, AcctEvent> events, long nextEventId) {
  public static final AcctOutbox EMPTY = new AcctOutbox(TreePMap.empty(), 1);

  public static AcctOutbox of(List<AcctEvent> events, long nextEventId) {
    TreePMap<Long, AcctEvent> m = TreePMap.empty();
    for (AcctEvent e : events) {
      m = m.plus(e.getEventId(), e);
    }
    return new AcctOutbox(m, Math.max(1, nextEventId));
  }

  AcctOutbox add(AcctJob job) {
    return add(AcctEvent.newBuilder().setJob(job));
  }

  AcctOutbox add(NodeEvent node) {
    return add(AcctEvent.newBuilder().setNodeEvent(node));
  }

  AcctOutbox add(org.corral.protocol.msg.ResvPeriod period) {
    return add(AcctEvent.newBuilder().setReservation(period));
  }

  private AcctOutbox add(AcctEvent.Builder b) {
    AcctEvent e = b.setEventId(nextEventId).build();
    return new AcctOutbox(events.plus(nextEventId, e), nextEventId + 1);
  }

  AcctOutbox shipped(long through) {
    return new AcctOutbox(events.tailMap(through, false), nextEventId);
  }

  /** Up to {@code max} waiting events, oldest first. */
  public List<AcctEvent> oldest(int max) {
    return events.values().stream().limit(max).toList();
  }
}

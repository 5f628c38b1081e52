package org.corral.ctld.state;

import java.util.Objects;
import org.corral.common.Hostlist;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.ResvPeriod;

/**
 * What accounting keeps of reservations: their periods, as Slurm's slurmdbd keeps rows in its
 * resv table (the usage rollups count a MAINT reservation's CPU time as planned down). A
 * reservation created opens a period; a change to one that has not begun replaces its period; a
 * change to one that has begun ends the period at that moment and opens another (a DAILY one
 * rolled forward keeps its past period whole); a deletion ends it, or removes it if it never
 * began. Part of {@link StateMachine#apply}: pure, so a replay yields the same events.
 */
final class ReservationRecords {
  private ReservationRecords() {}

  static AcctOutbox periods(ClusterState before, ClusterState after, Command c, AcctOutbox outbox) {
    switch (c) {
      case Command.CreateReservation x -> {
        ReservationInfo now = after.reservations().named(x.reservation().getName()).orElse(null);
        return now == null ? outbox : outbox.add(period(now, now.getStartTime(), now.getEndTime()));
      }
      case Command.UpdateReservation x -> {
        ReservationInfo was = before.reservations().named(x.reservation().getName()).orElse(null);
        ReservationInfo now = after.reservations().named(x.reservation().getName()).orElse(null);
        if (now == null) {
          return outbox;
        }
        if (was == null) {
          return outbox.add(period(now, now.getStartTime(), now.getEndTime()));
        }
        if (samePeriod(was, now)) {
          return outbox;
        }
        long t = x.time();
        if (t < was.getStartTime()) { // not begun: the new period replaces it
          if (was.getStartTime() != now.getStartTime()) {
            outbox = outbox.add(period(was, was.getStartTime(), was.getEndTime()).toBuilder().setDeleted(true).build());
          }
          return outbox.add(period(now, now.getStartTime(), now.getEndTime()));
        }
        if (was.getStartTime() == now.getStartTime() && sameResources(was, now)) {
          return t < was.getEndTime() ? outbox.add(close(was, t, now.getEndTime())) : outbox; // its end moved
        }
        if (t < was.getEndTime()) { // begun and changed while it lasts: ends now, another begins
          outbox = outbox.add(close(was, t, t));
        }
        return outbox.add(period(now, Math.max(t, now.getStartTime()), now.getEndTime()));
      }
      case Command.DeleteReservation x -> {
        ReservationInfo was = before.reservations().named(x.name()).orElse(null);
        if (was == null || after.reservations().named(x.name()).isPresent()) {
          return outbox;
        }
        if (x.time() < was.getStartTime()) {
          return outbox.add(period(was, was.getStartTime(), was.getEndTime()).toBuilder().setDeleted(true).build());
        }
        return x.time() < was.getEndTime() ? outbox.add(close(was, x.time(), x.time())) : outbox;
      }
      default -> {
        return outbox;
      }
    }
  }

  private static ResvPeriod period(ReservationInfo r, long start, long end) {
    return ResvPeriod.newBuilder().setName(r.getName()).setTimeStart(start).setTimeEnd(end)
        .setNodes(Hostlist.compress(r.getNodeNamesList())).setCpus(r.getCoreCnt()).addAllFlags(r.getFlagsList())
        .build();
  }

  /** The period of {@code r} open at {@code at} (whenever it began) ends at {@code end}. */
  private static ResvPeriod close(ReservationInfo r, long at, long end) {
    return ResvPeriod.newBuilder().setName(r.getName()).setAt(at).setTimeEnd(end).build();
  }

  private static boolean samePeriod(ReservationInfo a, ReservationInfo b) {
    return a.getStartTime() == b.getStartTime() && a.getEndTime() == b.getEndTime() && sameResources(a, b);
  }

  private static boolean sameResources(ReservationInfo a, ReservationInfo b) {
    return a.getNodeNamesList().equals(b.getNodeNamesList()) && a.getCoreCnt() == b.getCoreCnt()
        && Objects.equals(a.getFlagsList(), b.getFlagsList());
  }
}

package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.ReservationFlags;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.ReservationInfo;

/**
 * What the end of a reservation changes: a DAILY or WEEKLY one moves to its next occurrence (a
 * day or a week later, as often as needed to lie ahead again), any other is removed. Jobs still
 * running in it are ended then (ResvOverRun=0, Slurm's default: the reference ended such a job
 * TIMEOUT at the reservation's end).
 */
public final class ReservationCalendar {
  private static final long DAY = 86400;

  private ReservationCalendar() {}

  /** The commands for reservations whose end is at or before {@code now}. */
  public static List<Command> due(ClusterState s, long now) {
    List<Command> out = new ArrayList<>();
    for (ReservationInfo r : s.reservations().all()) {
      if (r.getEndTime() > now) {
        continue;
      }
      long period = ReservationWindows.has(r, ReservationFlags.DAILY) ? DAY
          : ReservationWindows.has(r, ReservationFlags.WEEKLY) ? 7 * DAY : 0;
      if (period == 0) {
        out.add(new Command.DeleteReservation(r.getName(), now));
      } else {
        long steps = (now - r.getEndTime()) / period + 1;
        out.add(new Command.UpdateReservation(r.toBuilder().setStartTime(r.getStartTime() + steps * period)
            .setEndTime(r.getEndTime() + steps * period).build(), now));
      }
    }
    return out;
  }

  /** Whether the job runs in a reservation that has ended by {@code now}. */
  public static boolean outlived(ClusterState s, JobInfo j, long now) {
    return !j.getReservation().isEmpty()
        && s.reservations().named(j.getReservation()).map(r -> r.getEndTime() <= now).orElse(false);
  }
}

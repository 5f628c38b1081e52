package org.corral.ctld.sched;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.ReservationFlags;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.ReservationInfo;

/**
 * What the end of a reservation changes: a recurring one moves to its next occurrence that lies
 * ahead (HOURLY: an hour on, DAILY: a day, WEEKDAY: to the next Monday to Friday, WEEKEND: to
 * the next Saturday or Sunday, both: any day, WEEKLY: a week; the first of these it has), any
 * other is removed. Jobs still running in it are ended then (ResvOverRun=0, Slurm's default: the
 * reference ended such a job TIMEOUT at the reservation's end).
 */
public final class ReservationCalendar {
  private static final long HOUR = 3600;
  private static final long DAY = 86400;

  private ReservationCalendar() {}

  /** The commands for reservations whose end is at or before {@code now}; days of the week in the host's zone. */
  public static List<Command> due(ClusterState s, long now) {
    return due(s, now, ZoneId.systemDefault());
  }

  public static List<Command> due(ClusterState s, long now, ZoneId zone) {
    List<Command> out = new ArrayList<>();
    for (ReservationInfo r : s.reservations().all()) {
      if (r.getEndTime() > now) {
        continue;
      }
      long shift = shift(r, now, zone);
      if (shift == 0) {
        out.add(new Command.DeleteReservation(r.getName(), now));
      } else {
        out.add(new Command.UpdateReservation(r.toBuilder().setStartTime(r.getStartTime() + shift)
            .setEndTime(r.getEndTime() + shift).build(), now));
      }
    }
    return out;
  }

  /**
   * PURGE_COMP: reservations that hold their nodes now, that no job (pending or running) names, and
   * that have been so for their purge time since they began or since the last job in them ended,
   * whichever is later, are deleted.
   */
  public static List<Command> idle(ClusterState s, long now) {
    List<Command> out = new ArrayList<>();
    for (ReservationInfo r : s.reservations().all()) {
      if (!ReservationWindows.has(r, ReservationFlags.PURGE_COMP) || r.getStartTime() > now || r.getEndTime() <= now) {
        continue;
      }
      long idleSince = Math.max(r.getStartTime(), r.getLastJobEnd());
      boolean used = false;
      for (JobRecord rec : s.jobs().values()) {
        JobInfo j = rec.getInfo();
        if (!j.getReservation().equals(r.getName())) {
          continue;
        }
        if (!JobStates.isFinished(j) || j.getCompleting()) {
          used = true;
          break;
        }
        idleSince = Math.max(idleSince, j.getEndTime());
      }
      if (!used && idleSince + r.getPurgeCompTime() <= now) {
        out.add(new Command.DeleteReservation(r.getName(), now));
      }
    }
    return out;
  }

  /** How far a recurring reservation moves so that its end lies after {@code now}; 0 when it does not recur. */
  static long shift(ReservationInfo r, long now, ZoneId zone) {
    boolean weekday = ReservationWindows.has(r, ReservationFlags.WEEKDAY);
    boolean weekend = ReservationWindows.has(r, ReservationFlags.WEEKEND);
    long period = ReservationWindows.has(r, ReservationFlags.HOURLY) ? HOUR
        : ReservationWindows.has(r, ReservationFlags.DAILY) || (weekday && weekend) ? DAY
        : weekday || weekend ? -1
        : ReservationWindows.has(r, ReservationFlags.WEEKLY) ? 7 * DAY : 0;
    if (period > 0) {
      return ((now - r.getEndTime()) / period + 1) * period;
    }
    if (period == 0) {
      return 0;
    }
    long shift = ((now - r.getEndTime()) / DAY + 1) * DAY; // the first day it lies ahead, then to an allowed one
    while (isWeekend(r.getStartTime() + shift, zone) != weekend) {
      shift += DAY;
    }
    return shift;
  }

  private static boolean isWeekend(long epochSecond, ZoneId zone) {
    DayOfWeek d = Instant.ofEpochSecond(epochSecond).atZone(zone).getDayOfWeek();
    return d == DayOfWeek.SATURDAY || d == DayOfWeek.SUNDAY;
  }

  /** Whether the job runs in a reservation that has ended by {@code now}. */
  public static boolean outlived(ClusterState s, JobInfo j, long now) {
    return !j.getReservation().isEmpty()
        && s.reservations().named(j.getReservation()).map(r -> r.getEndTime() <= now).orElse(false);
  }
}

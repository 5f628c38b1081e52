package org.corral.dbd.report;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Hours, days and months as epoch seconds in the zone slurmdbd reports in (the local one, as
 * Slurm's rollups and sreport's start=today use). A period is named by its first second.
 */
record UsageCalendar(ZoneId zone) {
  static final long HOUR = 3600;

  private ZonedDateTime at(long t) {
    return ZonedDateTime.ofInstant(Instant.ofEpochSecond(t), zone);
  }

  long hourOf(long t) {
    return at(t).truncatedTo(ChronoUnit.HOURS).toEpochSecond();
  }

  long nextHour(long hourStart) {
    return at(hourStart).truncatedTo(ChronoUnit.HOURS).plusHours(1).toEpochSecond();
  }

  long dayOf(long t) {
    return at(t).truncatedTo(ChronoUnit.DAYS).toEpochSecond();
  }

  long nextDay(long dayStart) {
    return at(dayStart).truncatedTo(ChronoUnit.DAYS).plusDays(1).toEpochSecond();
  }

  long monthOf(long t) {
    return at(t).truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1).toEpochSecond();
  }

  long nextMonth(long monthStart) {
    return at(monthStart).truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1).plusMonths(1).toEpochSecond();
  }

  /** Seconds of [a, b) within [from, to). */
  static long overlap(long a, long b, long from, long to) {
    return Math.max(0, Math.min(b, to) - Math.max(a, from));
  }
}

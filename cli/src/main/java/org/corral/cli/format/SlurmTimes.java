package org.corral.cli.format;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.corral.common.SlurmDuration;

/** Timestamps and durations in the forms Slurm's commands print. */
public final class SlurmTimes {
  private static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);
  // ctime(3) without the newline: "Mon Nov 23 12:37:04 2026", the day of month space-padded.
  private static final DateTimeFormatter CTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT);

  /** Minutes meaning "no limit". */
  public static final long INFINITE = 0xFFFFFFFFL;

  private SlurmTimes() {}

  /** Epoch seconds as {@code 2026-11-23T12:37:00}, or {@code unset} when zero. */
  public static String iso(long epoch, ZoneId zone, String unset) {
    return epoch <= 0 ? unset : ISO.format(Instant.ofEpochSecond(epoch).atZone(zone));
  }

  /** The date line that long listings start with. */
  public static String ctime(Instant now, ZoneId zone) {
    return CTIME.format(now.atZone(zone));
  }

  /** Seconds as scontrol prints run times and limits: {@code 00:10:00}, {@code 1-00:00:00}. */
  public static String hms(long seconds) {
    return SlurmDuration.formatSecondsPadded(seconds);
  }

  /** A limit in minutes for scontrol: {@code UNLIMITED} or {@link #hms}. */
  public static String limitHms(long minutes) {
    return minutes == INFINITE ? "UNLIMITED" : hms(minutes * 60);
  }
}

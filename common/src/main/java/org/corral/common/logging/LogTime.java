package org.corral.common.logging;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * slurm.conf's LogTimeFormat: how each log line's time is written. iso8601_ms (the default)
 * {@code 2026-11-28T10:00:00.123}, iso8601 without milliseconds, rfc5424_ms / rfc5424 / rfc3339
 * with the zone offset, short {@code Nov 28 10:00:00.123}, clock the microseconds since the
 * daemon started; {@code thread_id} (added with a comma) names the thread after the time.
 */
public record LogTime(String format, boolean threadId) {
  public static final LogTime DEFAULT = new LogTime("iso8601_ms", false);
  private static final long START_NANOS = System.nanoTime();
  private static final DateTimeFormatter ISO_MS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");
  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
  private static final DateTimeFormatter RFC_MS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
  private static final DateTimeFormatter RFC = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX");
  private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("MMM dd HH:mm:ss.SSS", Locale.ROOT);

  /** LogTimeFormat's value ("" or null: the default); an unknown word is refused. */
  public static LogTime parse(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT;
    }
    String format = DEFAULT.format;
    boolean thread = false;
    for (String w : value.toLowerCase(Locale.ROOT).split(",")) {
      switch (w.trim()) {
        case "iso8601", "iso8601_ms", "rfc5424", "rfc5424_ms", "rfc3339", "clock", "short" -> format = w.trim();
        case "thread_id" -> thread = true;
        case "format_stderr" -> { } // stderr is formatted like the file already
        default -> throw new IllegalArgumentException("invalid LogTimeFormat '" + value + "'");
      }
    }
    return new LogTime(format, thread);
  }

  /** The time as this format writes it, in {@code zone}. */
  public String format(Instant t, ZoneId zone) {
    return switch (format) {
      case "iso8601" -> LocalDateTime.ofInstant(t, zone).format(ISO);
      case "rfc5424_ms" -> OffsetDateTime.ofInstant(t, zone).format(RFC_MS);
      case "rfc5424", "rfc3339" -> OffsetDateTime.ofInstant(t, zone).format(RFC);
      case "short" -> LocalDateTime.ofInstant(t, zone).format(SHORT);
      case "clock" -> Long.toString((System.nanoTime() - START_NANOS) / 1000);
      default -> LocalDateTime.ofInstant(t, zone).format(ISO_MS);
    };
  }
}

package org.corral.common;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The times --begin (and scontrol's StartTime=) accept, as sbatch(1) lists them: {@code now}
 * [{@code +COUNT[seconds|minutes|hours|days|weeks]}], {@code HH:MM[:SS]} [AM|PM] (the next such
 * time), {@code midnight}, {@code noon}, {@code fika} (15:00), {@code teatime} (16:00),
 * {@code today}, {@code tomorrow}, {@code YYYY-MM-DD[THH:MM[:SS]]}, {@code MM/DD[/YY]} and
 * {@code MMDDYY}, optionally followed by a time after 'T' or a space. As Slurm's parse_time, a
 * time of day and a day may also be given in either order, apart by '-' or spaces
 * ({@code noon-tomorrow}, {@code tomorrow 16:00}, {@code 15:30-12/31}); units of {@code now+}
 * are whole words only ({@code now+1h} is refused, as there).
 */
public final class TimeSpec {
  private static final Pattern NOW = Pattern.compile("now(?:\\s*\\+\\s*(\\d+)\\s*([a-z]*))?");
  private static final Pattern CLOCK = Pattern.compile("(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*(am|pm)?");
  private static final Pattern ISO = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[t ](.+))?");
  private static final Pattern US = Pattern.compile("(\\d{1,2})/(\\d{1,2})(?:/(\\d{2}))?(?:[t ](.+))?");
  /** Two words apart by '-' or spaces (not inside a date: the first word holds no '-'). */
  private static final Pattern PAIR = Pattern.compile("([^-\\s]+)(?:\\s*-\\s*|\\s+)(\\S*)");
  private static final Pattern COMPACT = Pattern.compile("(\\d{2})(\\d{2})(\\d{2})(?:[t ](.+))?");

  private TimeSpec() {}

  /**
   * Epoch seconds for {@code text} seen at {@code now}.
   *
   * @throws IllegalArgumentException when it is none of the forms
   */
  public static long parse(String text, ZonedDateTime now) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      Matcher m = NOW.matcher(t);
      if (m.matches()) {
        long count = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
        return now.toEpochSecond() + count * unitSeconds(m.group(2) == null ? "" : m.group(2));
      }
      switch (t) {
        case "today" -> {
          return now.truncatedTo(ChronoUnit.DAYS).toEpochSecond();
        }
        case "tomorrow" -> {
          return now.truncatedTo(ChronoUnit.DAYS).plusDays(1).toEpochSecond();
        }
        default -> { }
      }
      LocalTime clock = timeOfDay(t);
      if (clock != null) {
        ZonedDateTime at = now.with(clock);
        return (at.isAfter(now) ? at : at.plusDays(1)).toEpochSecond();
      }
      Long pair = timeAndDay(t, now);
      if (pair != null) {
        return pair;
      }
      LocalDate date = null;
      String rest = null;
      if ((m = ISO.matcher(t)).matches()) {
        date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        rest = m.group(4);
      } else if ((m = US.matcher(t)).matches()) {
        int year = m.group(3) != null ? 2000 + Integer.parseInt(m.group(3)) : now.getYear();
        date = LocalDate.of(year, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
        rest = m.group(4);
        if (m.group(3) == null && date.atStartOfDay(now.getZone()).isBefore(now.truncatedTo(ChronoUnit.DAYS))) {
          date = date.plusYears(1); // a month and day already past this year: next year's
        }
      } else if ((m = COMPACT.matcher(t)).matches()) {
        date = LocalDate.of(2000 + Integer.parseInt(m.group(3)), Integer.parseInt(m.group(1)),
            Integer.parseInt(m.group(2)));
        rest = m.group(4);
      }
      if (date != null) {
        LocalTime time = rest == null ? LocalTime.MIDNIGHT : timeOfDay(rest.trim());
        if (time == null) {
          throw new IllegalArgumentException(text);
        }
        return date.atTime(time).atZone(now.getZone()).toEpochSecond();
      }
    } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(text, e);
    }
    throw new IllegalArgumentException(text);
  }

  /**
   * A time of day and a day in either order, apart by '-' or spaces; null when the text is not
   * two such words. The day alone would mean its midnight; with a time, that time on it.
   */
  private static Long timeAndDay(String t, ZonedDateTime now) {
    Matcher m = PAIR.matcher(t);
    if (!m.matches()) {
      return null;
    }
    String first = m.group(1);
    String second = m.group(2);
    LocalTime time = timeOfDay(first);
    String day = second;
    if (time == null) {
      time = timeOfDay(second);
      day = first;
    }
    if (time == null) {
      return null;
    }
    if (day.isEmpty() || timeOfDay(day) != null) {
      ZonedDateTime at = now.with(time); // "noon-" and "noon-noon" are just noon
      return (at.isAfter(now) ? at : at.plusDays(1)).toEpochSecond();
    }
    ZonedDateTime midnight = Instant.ofEpochSecond(parse(day, now)).atZone(now.getZone());
    return midnight.toLocalDate().atTime(time).atZone(now.getZone()).toEpochSecond();
  }

  private static LocalTime timeOfDay(String t) {
    switch (t) {
      case "midnight" -> {
        return LocalTime.MIDNIGHT;
      }
      case "noon" -> {
        return LocalTime.NOON;
      }
      case "fika" -> {
        return LocalTime.of(15, 0);
      }
      case "teatime" -> {
        return LocalTime.of(16, 0);
      }
      default -> { }
    }
    Matcher m = CLOCK.matcher(t);
    if (!m.matches()) {
      return null;
    }
    int h = Integer.parseInt(m.group(1));
    if ("pm".equals(m.group(4)) && h < 12) {
      h += 12;
    } else if ("am".equals(m.group(4)) && h == 12) {
      h = 0;
    }
    return LocalTime.of(h, Integer.parseInt(m.group(2)), m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
  }

  private static long unitSeconds(String unit) {
    return switch (unit) {
      case "", "second", "seconds" -> 1;
      case "minute", "minutes" -> 60;
      case "hour", "hours" -> 3600;
      case "day", "days" -> 86400;
      case "week", "weeks" -> 7 * 86400;
      default -> throw new IllegalArgumentException(unit);
    };
  }
}

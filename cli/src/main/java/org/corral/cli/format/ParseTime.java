package org.corral.cli.format;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * Times as Slurm's parse_time reads them for sacct's -S/-E and sreport's start=/end= (times in the past): {@code now[{+|-}N
 * [units]]}, {@code HH:MM[:SS][AM|PM]} (today), {@code MMDD[YY]}, {@code MM/DD[/YY]},
 * {@code MM.DD[.YY]} (a month after this one is last year's), {@code YYYY-MM-DD}, each optionally
 * followed by {@code -HH:MM[:SS]} or {@code THH:MM[:SS]}, and today, tomorrow, midnight, noon, fika,
 * teatime. A bad one is reported as parse_time reports it, with the position it stopped at.
 */
public final class ParseTime {
  private ParseTime() {}

  /** A time that could not be read; the message is parse_time's whole line. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(int pos, String text) {
      super("Invalid time specification (pos=" + pos + "): " + text);
    }
  }

  private static final String[][] UNITS = {
    {"seconds", "1"}, {"second", "1"}, {"sec", "1"}, {"minutes", "60"}, {"minute", "60"}, {"min", "60"},
    {"hours", "3600"}, {"hour", "3600"}, {"days", "86400"}, {"day", "86400"}, {"weeks", "604800"},
    {"week", "604800"}};

  /** Fields being filled, as parse_time keeps them (-1 = not given). */
  private static final class Parts {
    int hour = -1;
    int minute = -1;
    int second;
    int month = -1;
    int mday = -1;
    int year = -1;
    int pos;
  }

  /** Epoch seconds; 0 when the text names no time at all. */
  public static long parse(String text, long now, ZoneId zone) throws Invalid {
    String s = text;
    if (s.regionMatches(true, 0, "uts", 0, 3)) {
      try {
        long uts = Long.parseLong(s.substring(3));
        if (uts >= 1_000_000) {
          return uts;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new Invalid(0, text);
    }
    ZonedDateTime today = ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(now), zone);
    Parts p = new Parts();
    for (p.pos = 0; p.pos < s.length() && s.charAt(p.pos) != '\n'; p.pos++) {
      char c = s.charAt(p.pos);
      if (c == ' ' || c == '\t' || c == '-' || c == 'T') {
        continue;
      }
      if (word(s, p.pos, "today") || word(s, p.pos, "tomorrow")) {
        boolean tomorrow = word(s, p.pos, "tomorrow");
        date(p, tomorrow ? today.plusDays(1) : today);
        p.pos += (tomorrow ? "tomorrow" : "today").length() - 1;
        continue;
      }
      String clockWord = clockWord(s, p.pos);
      if (clockWord != null) {
        clock(p, CLOCK_WORDS.get(clockWord));
        p.pos += clockWord.length() - 1;
        continue;
      }
      if (word(s, p.pos, "now")) {
        long delta = now(s, p, text);
        ZonedDateTime later = today.plusSeconds(delta);
        p.hour = later.getHour();
        p.minute = later.getMinute();
        p.second = later.getSecond();
        date(p, later);
        continue;
      }
      if (c < '0' || c > '9') {
        throw new Invalid(p.pos, text);
      }
      if (at(s, p.pos + 1) == ':' || at(s, p.pos + 2) == ':') {
        time(s, p, text);
        continue;
      }
      date(s, p, text);
    }
    if (p.hour == -1 && p.month == -1) {
      return 0;
    }
    if (p.hour == -1) {
      p.hour = 0;
      p.minute = 0;
    } else if (p.month == -1) {
      date(p, today); // a time alone is today's (sacct looks into the past)
    }
    if (p.year == -1) {
      p.year = p.month > today.getMonthValue() - 1 ? today.getYear() - 1 - 1900 : today.getYear() - 1900;
    }
    LocalDateTime t = LocalDate.of(p.year + 1900, 1, 1).plusMonths(p.month).plusDays(p.mday - 1L)
        .atStartOfDay().plusHours(p.hour).plusMinutes(p.minute).plusSeconds(p.second);
    return t.atZone(zone).toEpochSecond();
  }

  /** Times of day by name. */
  private static final java.util.Map<String, Integer> CLOCK_WORDS =
      java.util.Map.of("midnight", 0, "noon", 12, "fika", 15, "teatime", 16);

  private static String clockWord(String s, int pos) {
    for (String w : CLOCK_WORDS.keySet()) {
      if (word(s, pos, w)) {
        return w;
      }
    }
    return null;
  }

  private static boolean word(String s, int pos, String w) {
    return s.regionMatches(true, pos, w, 0, w.length());
  }

  private static char at(String s, int i) {
    return i < s.length() ? s.charAt(i) : '\0';
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  private static void date(Parts p, ZonedDateTime d) {
    p.month = d.getMonthValue() - 1;
    p.mday = d.getDayOfMonth();
    p.year = d.getYear() - 1900;
  }

  private static void clock(Parts p, int hour) {
    p.hour = hour;
    p.minute = 0;
    p.second = 0;
  }

  // "now", then optionally +N or -N with a unit; parse_time's positions (it adds the index).
  private static long now(String s, Parts p, String text) throws Invalid {
    for (int i = p.pos + 3; ; i++) {
      char c = at(s, i);
      if (c == '+' || c == '-') {
        p.pos += i;
        long delta = delta(s, p, text);
        return c == '-' ? -delta : delta;
      }
      if (c == ' ' || c == '\t') {
        continue;
      }
      if (c == '\0' || c == '\n') {
        p.pos += i - 1;
        return 0;
      }
      p.pos += i;
      throw new Invalid(p.pos, text);
    }
  }

  private static long delta(String s, Parts p, String text) throws Invalid {
    long count = 0;
    int digits = 0;
    int offset;
    scan:
    for (offset = p.pos + 1; offset < s.length() && s.charAt(offset) != '\n'; offset++) {
      char c = s.charAt(offset);
      if (Character.isWhitespace(c)) {
        continue;
      }
      for (String[] u : UNITS) {
        if (word(s, offset, u[0])) {
          offset += u[0].length();
          count *= Long.parseLong(u[1]);
          break scan;
        }
      }
      if (digit(c)) {
        count = count * 10 + (c - '0');
        digits++;
        continue;
      }
      p.pos = offset - 1;
      throw new Invalid(p.pos, text);
    }
    if (digits == 0) {
      throw new Invalid(p.pos, text);
    }
    p.pos = offset - 1;
    return count;
  }

  private static void time(String s, Parts p, String text) throws Invalid {
    int o = p.pos;
    if (!digit(at(s, o))) {
      throw new Invalid(o, text);
    }
    int hr = s.charAt(o++) - '0';
    if (at(s, o) != ':') {
      if (!digit(at(s, o))) {
        throw new Invalid(o, text);
      }
      hr = hr * 10 + s.charAt(o++) - '0';
    }
    if (hr > 23 || at(s, o) != ':') {
      throw new Invalid(o - 2, text);
    }
    o++;
    int min = twoDigits(s, o, text);
    o += 2;
    if (min > 59) {
      throw new Invalid(o - 2, text);
    }
    int sec = 0;
    if (at(s, o) == ':') {
      o++;
      sec = twoDigits(s, o, text);
      o += 2;
      if (sec > 59) {
        throw new Invalid(o - 2, text);
      }
    }
    while (Character.isWhitespace(at(s, o))) {
      o++;
    }
    if (word(s, o, "pm")) {
      hr += 12;
      if (hr > 23) {
        if (hr != 24) {
          throw new Invalid(o, text);
        }
        hr = 12;
      }
      o += 2;
    } else if (word(s, o, "am")) {
      if (hr > 11) {
        if (hr != 12) {
          throw new Invalid(o, text);
        }
        hr = 0;
      }
      o += 2;
    }
    p.pos = o - 1;
    p.hour = hr;
    p.minute = min;
    p.second = sec;
  }

  private static int twoDigits(String s, int o, String text) throws Invalid {
    if (!digit(at(s, o))) {
      throw new Invalid(o, text);
    }
    if (!digit(at(s, o + 1))) {
      throw new Invalid(o + 1, text);
    }
    return (s.charAt(o) - '0') * 10 + s.charAt(o + 1) - '0';
  }

  private static void date(String s, Parts p, String text) throws Invalid {
    int o = p.pos;
    if (s.length() >= o + 7 && at(s, o + 4) == '-' && at(s, o + 7) == '-') {
      int yr = 0;
      for (int i = 0; i < 4; i++) {
        if (!digit(at(s, o))) {
          throw new Invalid(o, text);
        }
        yr = yr * 10 + s.charAt(o++) - '0';
      }
      o++;
      int mon = at(s, o++) - '0';
      if (digit(at(s, o))) {
        mon = mon * 10 + s.charAt(o++) - '0';
      }
      if (mon < 1 || mon > 12) {
        throw new Invalid(o - 2, text);
      }
      o++;
      if (!digit(at(s, o))) {
        throw new Invalid(o, text);
      }
      int day = s.charAt(o++) - '0';
      if (digit(at(s, o))) {
        day = day * 10 + s.charAt(o++) - '0';
      }
      if (day < 1 || day > 31) {
        throw new Invalid(o - 2, text);
      }
      p.pos = o - 1;
      p.month = mon - 1;
      p.mday = day;
      p.year = yr - 1900;
      return;
    }
    int mon = at(s, o++) - '0';
    if (digit(at(s, o))) {
      mon = mon * 10 + s.charAt(o++) - '0';
    }
    if (mon < 1 || mon > 12) {
      throw new Invalid(o - 2, text);
    }
    if (at(s, o) == '/' || at(s, o) == '.') {
      o++;
    }
    if (!digit(at(s, o))) {
      throw new Invalid(o, text);
    }
    int day = s.charAt(o++) - '0';
    if (digit(at(s, o))) {
      day = day * 10 + s.charAt(o++) - '0';
    }
    if (day < 1 || day > 31) {
      throw new Invalid(o - 2, text);
    }
    if (at(s, o) == '/' || at(s, o) == '.') {
      o++;
    }
    int yr = 0;
    if (digit(at(s, o))) {
      yr = s.charAt(o++) - '0';
      if (!digit(at(s, o))) {
        throw new Invalid(o, text);
      }
      yr = yr * 10 + s.charAt(o++) - '0';
    }
    p.pos = o - 1;
    p.month = mon - 1;
    if (yr != 0) {
      p.year = yr + 100;
    }
    p.mday = day;
  }
}

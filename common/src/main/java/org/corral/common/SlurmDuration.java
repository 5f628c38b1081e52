package org.corral.common;

/**
 * Slurm's time-limit syntax ({@code M}, {@code M:S}, {@code H:M:S}, {@code D-H},
 * {@code D-H:M}, {@code D-H:M:S}, {@code UNLIMITED}/{@code INFINITE}/{@code -1}) and its two
 * display forms: squeue/sinfo's short one ({@code 30:00}, {@code 1:00:00}, {@code 1-00:00:00})
 * and scontrol's padded one ({@code 00:30:00}).
 *
 * <p>As in Slurm 22.05, fields may exceed their natural range ({@code 1:90} is 2.5 minutes) and
 * seconds round up to whole minutes. A limit of 0 parses as 0; sbatch's "0 means no limit" is
 * the caller's rule, not the syntax's.
 */
public final class SlurmDuration {
  /** Minutes meaning "no limit" (Slurm's INFINITE, a uint32 of all ones). */
  public static final long INFINITE = 0xFFFFFFFFL;

  /** Slurm's word for {@link #INFINITE} in squeue, scontrol and sinfo's long forms. */
  public static final String UNLIMITED = "UNLIMITED";

  private SlurmDuration() {}

  /**
   * Parses a time limit into minutes, rounding seconds up.
   *
   * @throws IllegalArgumentException "Invalid time limit specification: S" on bad syntax or a
   *     value of INFINITE minutes or more
   */
  public static long parseMinutes(String s) {
    String t = s.trim();
    if (t.equalsIgnoreCase("UNLIMITED") || t.equalsIgnoreCase("INFINITE") || t.equals("-1")) {
      return INFINITE;
    }
    long[] f = fields(t);
    if (f == null) {
      throw new IllegalArgumentException("Invalid time limit specification: " + s);
    }
    long minutes;
    try {
      long secs = Math.addExact(Math.multiplyExact(f[0], 86400),
          Math.addExact(Math.multiplyExact(f[1], 3600), Math.addExact(Math.multiplyExact(f[2], 60), f[3])));
      minutes = secs / 60 + (secs % 60 == 0 ? 0 : 1);
    } catch (ArithmeticException e) {
      minutes = INFINITE;
    }
    if (minutes >= INFINITE) {
      throw new IllegalArgumentException("Invalid time limit specification: " + s);
    }
    return minutes;
  }

  /** {days, hours, minutes, seconds}, or null when the text is not time syntax. */
  private static long[] fields(String t) {
    int dash = t.indexOf('-');
    String[] p;
    long days = 0;
    if (dash >= 0) {
      if (!isNumber(t.substring(0, dash))) {
        return null;
      }
      days = Long.parseLong(t.substring(0, dash));
      String rest = t.substring(dash + 1);
      if (rest.isEmpty()) { // "1-" is one day in Slurm
        return new long[] {days, 0, 0, 0};
      }
      p = rest.split(":", -1);
      if (p.length > 3 || !allNumbers(p)) {
        return null;
      }
      return new long[] {days, num(p, 0), num(p, 1), num(p, 2)};
    }
    p = t.split(":", -1);
    if (!allNumbers(p)) {
      return null;
    }
    return switch (p.length) {
      case 1 -> new long[] {0, 0, num(p, 0), 0};
      case 2 -> new long[] {0, 0, num(p, 0), num(p, 1)};
      case 3 -> new long[] {0, num(p, 0), num(p, 1), num(p, 2)};
      default -> null;
    };
  }

  private static long num(String[] p, int i) {
    return i < p.length ? Long.parseLong(p[i]) : 0;
  }

  private static boolean allNumbers(String[] p) {
    for (String x : p) {
      if (!isNumber(x)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isNumber(String s) {
    return !s.isEmpty() && s.length() <= 12 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  /** A limit in minutes as squeue/sinfo show it: {@code 30:00}, {@code 1:00:00}, {@code 1-00:00:00}, {@code UNLIMITED}. */
  public static String formatMinutes(long minutes) {
    return minutes == INFINITE ? UNLIMITED : formatSeconds(minutes * 60);
  }

  /** A limit in minutes as scontrol shows it: {@code 00:30:00}, {@code 1-00:00:00}, {@code UNLIMITED}. */
  public static String formatMinutesPadded(long minutes) {
    return minutes == INFINITE ? UNLIMITED : formatSecondsPadded(minutes * 60);
  }

  /** Elapsed seconds as squeue shows them: {@code 0:05}, {@code 12:34}, {@code 1:02:03}, {@code 2-01:02:03}. */
  public static String formatSeconds(long seconds) {
    long s = Math.max(0, seconds);
    long days = s / 86400;
    long h = (s / 3600) % 24;
    StringBuilder b = new StringBuilder(16);
    if (days > 0) {
      b.append(days).append('-');
      twoDigits(b, h).append(':');
    } else if (h > 0) {
      b.append(h).append(':');
    }
    if (days > 0 || h > 0) {
      twoDigits(b, (s / 60) % 60);
    } else {
      b.append((s / 60) % 60);
    }
    return twoDigits(b.append(':'), s % 60).toString();
  }

  /** Seconds as scontrol shows them (RunTime=, TimeLimit=): {@code 00:00:05}, {@code 2-01:02:03}. */
  public static String formatSecondsPadded(long seconds) {
    long s = Math.max(0, seconds);
    long days = s / 86400;
    StringBuilder b = new StringBuilder(16);
    if (days > 0) {
      b.append(days).append('-');
    }
    twoDigits(b, (s / 3600) % 24).append(':');
    twoDigits(b, (s / 60) % 60).append(':');
    return twoDigits(b, s % 60).toString();
  }

  /**
   * Appends {@code n} (0-99) as two digits. Not String.format: its first use sets up the locale
   * data, a visible share of a command's start-up (squeue prints these on every row).
   */
  private static StringBuilder twoDigits(StringBuilder b, long n) {
    return b.append((char) ('0' + n / 10)).append((char) ('0' + n % 10));
  }
}

package org.corral.common;

/**
 * Slurm's time-limit syntax ({@code M}, {@code M:S}, {@code H:M:S}, {@code D-H},
 * {@code D-H:M}, {@code D-H:M:S}, {@code UNLIMITED}/{@code INFINITE}) and its display form.
 */
public final class SlurmDuration {
  /** Minutes meaning "no limit" (Slurm's INFINITE, a uint32 of all ones). */
  public static final long INFINITE = 0xFFFFFFFFL;

  private SlurmDuration() {}

  /** Parses a time limit into minutes, rounding seconds up; throws on bad syntax. */
  public static long parseMinutes(String s) {
    String t = s.trim();
    if (t.equalsIgnoreCase("UNLIMITED") || t.equalsIgnoreCase("INFINITE") || t.equals("-1")) {
      return INFINITE;
    }
    try {
      long days = 0;
      long h = 0;
      long m = 0;
      long sec = 0;
      int dash = t.indexOf('-');
      if (dash >= 0) {
        days = Long.parseLong(t.substring(0, dash));
        String[] p = t.substring(dash + 1).split(":", -1);
        h = Long.parseLong(p[0]);
        if (p.length > 1) {
          m = Long.parseLong(p[1]);
        }
        if (p.length > 2) {
          sec = Long.parseLong(p[2]);
        }
        if (p.length > 3) {
          throw new NumberFormatException();
        }
      } else {
        String[] p = t.split(":", -1);
        switch (p.length) {
          case 1 -> m = Long.parseLong(p[0]);
          case 2 -> {
            m = Long.parseLong(p[0]);
            sec = Long.parseLong(p[1]);
          }
          case 3 -> {
            h = Long.parseLong(p[0]);
            m = Long.parseLong(p[1]);
            sec = Long.parseLong(p[2]);
          }
          default -> throw new NumberFormatException();
        }
      }
      if (days < 0 || h < 0 || m < 0 || sec < 0) {
        throw new NumberFormatException();
      }
      return days * 1440 + h * 60 + m + (sec + 59) / 60;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid time limit specification: " + s);
    }
  }

  /** A time limit in minutes as Slurm shows it: {@code 30:00}, {@code 1:00:00}, {@code 1-00:00:00}, {@code UNLIMITED}. */
  public static String formatMinutes(long minutes) {
    return minutes == INFINITE ? "UNLIMITED" : formatSeconds(minutes * 60);
  }

  /** Elapsed seconds as Slurm shows them: {@code 0:05}, {@code 12:34}, {@code 1:02:03}, {@code 2-01:02:03}. */
  public static String formatSeconds(long seconds) {
    long s = Math.max(0, seconds);
    long days = s / 86400;
    long h = (s / 3600) % 24;
    long m = (s / 60) % 60;
    long sec = s % 60;
    if (days > 0) {
      return String.format("%d-%02d:%02d:%02d", days, h, m, sec);
    }
    if (h > 0) {
      return String.format("%d:%02d:%02d", h, m, sec);
    }
    return String.format("%d:%02d", m, sec);
  }
}

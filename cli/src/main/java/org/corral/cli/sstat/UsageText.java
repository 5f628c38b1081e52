package org.corral.cli.sstat;

import java.util.Locale;

/** How sstat writes sizes, CPU times and frequencies. */
final class UsageText {
  private static final String UNITS = "KMGTP";

  private UsageText() {}

  /**
   * A size in KiB as Slurm 22.05's sstat writes it: "1188K"; moved to a larger unit only while
   * that stays exact ("4M" for 4096K). 0 is "0".
   */
  static String kib(long kb, boolean noConvert) {
    if (kb == 0) {
      return "0";
    }
    return exact(kb, 0, noConvert);
  }

  /** A plain count or bytes: converted like sizes, but starting without a unit. */
  static String count(long value, boolean noConvert) {
    if (value < 1024 || noConvert || value % 1024 != 0) {
      return Long.toString(value);
    }
    return exact(value / 1024, 0, false);
  }

  private static String exact(long value, int unit, boolean noConvert) {
    while (!noConvert && value >= 1024 && value % 1024 == 0 && unit < UNITS.length() - 1) {
      value /= 1024;
      unit++;
    }
    return value + String.valueOf(UNITS.charAt(unit));
  }

  /** A frequency in kHz: "984K", "2.81M" (decimal steps, two decimals unless exact). */
  static String kilohertz(long khz) {
    if (khz < 1000) {
      return Long.toString(khz);
    }
    double v = khz;
    int unit = -1;
    while (v >= 1000 && unit < UNITS.length() - 1) {
      v /= 1000;
      unit++;
    }
    char u = UNITS.charAt(unit);
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%d%c", (long) v, u)
        : String.format(Locale.ROOT, "%.2f%c", v, u);
  }

  /** CPU time as sstat's MinCPU/AveCPU: MM:SS.mmm under an hour, HH:MM:SS, D-HH:MM:SS. */
  static String cpuTime(long millis) {
    long seconds = millis / 1000;
    long days = seconds / 86400;
    long hours = seconds / 3600 % 24;
    long minutes = seconds / 60 % 60;
    long secs = seconds % 60;
    if (days > 0) {
      return String.format(Locale.ROOT, "%d-%02d:%02d:%02d", days, hours, minutes, secs);
    }
    if (hours > 0) {
      return String.format(Locale.ROOT, "%02d:%02d:%02d", hours, minutes, secs);
    }
    return String.format(Locale.ROOT, "%02d:%02d.%03d", minutes, secs, millis % 1000);
  }

  /** CPU time inside TRES strings: HH:MM:SS (D-HH:MM:SS past a day). */
  static String tresTime(long millis) {
    long seconds = millis / 1000;
    long days = seconds / 86400;
    String hms = String.format(Locale.ROOT, "%02d:%02d:%02d", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    return days > 0 ? days + "-" + hms : hms;
  }
}

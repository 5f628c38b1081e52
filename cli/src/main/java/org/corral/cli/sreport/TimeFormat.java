package org.corral.cli.sreport;

import java.util.Locale;
import org.corral.cli.format.Printf;

/**
 * sreport's -t: how CPU-seconds print (sreport_print_time): whole seconds, minutes or hours
 * rounded as printf's %.0f rounds (to nearest, ties to even), a percentage of a total with two
 * decimals, or both ("49(10.06%)").
 */
enum TimeFormat {
  SECONDS("Seconds", 1, false),
  MINUTES("Minutes", 60, false),
  HOURS("Hours", 3600, false),
  PERCENT("Percentage of Total", 0, true),
  SECPER("Seconds/Percentage of Total", 1, true),
  MINPER("Minutes/Percentage of Total", 60, true),
  HOURPER("Hours/Percentage of Total", 3600, true);

  final String label;
  private final int divisor;
  private final boolean percent;

  TimeFormat(String label, int divisor, boolean percent) {
    this.label = label;
    this.divisor = divisor;
    this.percent = percent;
  }

  /** Whether values print as "N(P%)": their columns are wider (17). */
  boolean combined() {
    return percent && divisor > 0;
  }

  /**
   * The format a -t or "time" value names, as sreport matches it: SecPer, MinPer and HourPer
   * need six letters, the others any leading part; null if none.
   */
  static TimeFormat parse(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    if (matches(t, "secper", 6)) {
      return SECPER;
    }
    if (matches(t, "minper", 6)) {
      return MINPER;
    }
    if (matches(t, "hourper", 6)) {
      return HOURPER;
    }
    if (matches(t, "seconds", 1)) {
      return SECONDS;
    }
    if (matches(t, "minutes", 1)) {
      return MINUTES;
    }
    if (matches(t, "hours", 1)) {
      return HOURS;
    }
    if (matches(t, "percent", 1)) {
      return PERCENT;
    }
    return null;
  }

  /** strncasecmp(word, text, max(len(text), min)) == 0. */
  static boolean matches(String text, String word, int min) {
    int n = Math.max(text.length(), min);
    String a = text.length() > n ? text.substring(0, n) : text;
    String b = word.length() > n ? word.substring(0, n) : word;
    return a.equalsIgnoreCase(b);
  }

  /** {@code secs} as this format prints it, {@code total} being 100%. */
  String format(long secs, long total) {
    double pct = (double) secs / (total == 0 ? 1 : total) * 100;
    return switch (this) {
      case SECONDS -> Long.toString(secs);
      case MINUTES, HOURS -> whole((double) secs / divisor);
      case PERCENT -> fixed2(pct) + "%";
      case SECPER -> secs + "(" + fixed2(pct) + "%)";
      case MINPER, HOURPER -> whole((double) secs / divisor) + "(" + fixed2(pct) + "%)";
    };
  }

  /** printf("%.0f"). */
  static String whole(double v) {
    return Printf.fixed(v, 0);
  }

  /** printf("%.2f"). */
  static String fixed2(double v) {
    return Printf.fixed(v, 2);
  }
}

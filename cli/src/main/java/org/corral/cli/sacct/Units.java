package org.corral.cli.sacct;

import java.util.Locale;

/**
 * Slurm's convert_num_unit as sacct calls it: a number of some unit (none, K, M, G, T, P) written
 * with a unit letter. By default a value moves up (by 1024) only while that stays exact or a half
 * ({@code 1184K}, {@code 1.50M}); --noconvert keeps the unit it came in; --units=X writes every
 * value in X (two decimals unless whole).
 */
record Units(int target, boolean noConvert) {
  static final int NONE = 0;
  static final int KILO = 1;
  static final int MEGA = 2;
  private static final String LETTERS = "\0KMGTP";

  /** No --units, no --noconvert. */
  static final Units DEFAULT = new Units(-1, false);

  /** The unit letter's index for --units (K, M, G, T, P, any case), or -1. */
  static int unitOf(String letter) {
    if (letter.isEmpty()) {
      return -1;
    }
    int i = "KMGTP".indexOf(Character.toUpperCase(letter.charAt(0)));
    return i < 0 ? -1 : i + 1;
  }

  /** {@code value} counted in {@code unit}, stepping by {@code divisor}. */
  String format(double value, int unit, int divisor) {
    return format(value, unit, divisor, true);
  }

  /** As {@link #format} but converting aggressively where not exact (CPU frequencies). */
  String formatInexact(double value, int unit, int divisor) {
    return format(value, unit, divisor, false);
  }

  private String format(double value, int unit, int divisor, boolean exact) {
    double num = value;
    int u = unit;
    if ((long) num == 0) {
      return "0";
    }
    if (target >= 0) {
      while (target < u) {
        num *= divisor;
        u--;
      }
      while (target > u) {
        num /= divisor;
        u++;
      }
    } else if (noConvert) {
      // the unit it came in
    } else if (exact) {
      while (num >= divisor && (long) num % (divisor / 2) == 0) {
        num /= divisor;
        u++;
      }
    } else {
      while (num >= divisor) {
        num /= divisor;
        u++;
      }
    }
    if (u < NONE || u >= LETTERS.length()) {
      return "?";
    }
    String letter = u == NONE ? "" : String.valueOf(LETTERS.charAt(u));
    long whole = (long) num;
    return (double) whole == num ? whole + letter : String.format(Locale.ROOT, "%.2f%s", num, letter);
  }
}

package org.corral.common;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Memory sizes in megabytes, as Slurm reads them ({@code --mem=8G}, {@code RealMemory=4000}) and
 * prints them ({@code mem=8G}, {@code MinMemoryNode=1.50G}).
 */
public final class MemorySize {
  private static final String UNITS = "MGTPE";
  private static final long MAX_MB = Long.MAX_VALUE / 1024;

  private MemorySize() {}

  /**
   * Parses a whole number with an optional K, M, G or T suffix (an optional B may follow it,
   * any case) into megabytes, MB when there is no suffix; kilobytes round up to whole MB.
   *
   * @throws IllegalArgumentException "Invalid memory size: 'S'" for anything else (decimals,
   *     signs, P and larger units, as Slurm's --mem refuses them)
   */
  public static long parseMb(String s) {
    String t = stripUnit(s);
    char unit = unitOf(s);
    if (!isDigits(t) || "KMGT".indexOf(unit) < 0) {
      throw invalid(s);
    }
    long n = Long.parseLong(t);
    long mb = switch (unit) {
      case 'K' -> n / 1024 + (n % 1024 == 0 ? 0 : 1);
      case 'G' -> n <= MAX_MB >> 10 ? n << 10 : -1;
      case 'T' -> n <= MAX_MB >> 20 ? n << 20 : -1;
      default -> n <= MAX_MB ? n : -1;
    };
    if (mb < 0) {
      throw invalid(s);
    }
    return mb;
  }

  /**
   * Parses a size as Slurm prints it, which may have two decimals ({@code 1.50G}); also anything
   * {@link #parseMb} takes, and P/E units. Fractions of a megabyte round up.
   */
  public static long parseFormattedMb(String s) {
    String t = stripUnit(s);
    int dot = t.indexOf('.');
    String whole = dot < 0 ? t : t.substring(0, dot);
    int exp = ("K" + UNITS).indexOf(unitOf(s)) - 1; // K is 1024^-1 MB
    if (exp < -1 || !isDigits(whole) || (dot >= 0 && !isDigits(t.substring(dot + 1)))) {
      throw invalid(s);
    }
    try {
      BigDecimal n = new BigDecimal(t);
      BigDecimal mb = exp < 0 ? n.divide(BigDecimal.valueOf(1024)) : n.multiply(BigDecimal.valueOf(1024).pow(exp));
      return mb.setScale(0, RoundingMode.CEILING).longValueExact();
    } catch (ArithmeticException e) {
      throw invalid(s);
    }
  }

  /** The number part of a size, unit letters removed. */
  private static String stripUnit(String s) {
    String t = s.trim();
    if (t.length() > 1 && Character.toUpperCase(t.charAt(t.length() - 1)) == 'B'
        && Character.isLetter(t.charAt(t.length() - 2))) {
      t = t.substring(0, t.length() - 1);
    }
    return !t.isEmpty() && Character.isLetter(t.charAt(t.length() - 1)) ? t.substring(0, t.length() - 1) : t;
  }

  /** The unit letter of a size, upper case; 'M' when it has none. */
  private static char unitOf(String s) {
    String t = s.trim();
    int end = t.length();
    if (end > 1 && Character.toUpperCase(t.charAt(end - 1)) == 'B' && Character.isLetter(t.charAt(end - 2))) {
      end--;
    }
    return end > 0 && Character.isLetter(t.charAt(end - 1)) ? Character.toUpperCase(t.charAt(end - 1)) : 'M';
  }

  private static boolean isDigits(String s) {
    return !s.isEmpty() && s.length() <= 18 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static IllegalArgumentException invalid(String s) {
    return new IllegalArgumentException("Invalid memory size: '" + s + "'");
  }

  /**
   * Megabytes as Slurm prints a memory amount: the value moves up a unit (M, G, T, P, E) while it
   * is at least 1024 and a multiple of 512 there, and shows two decimals when not whole:
   * {@code 500M}, {@code 3000M}, {@code 1G}, {@code 1.50G}, {@code 2T}; 0 prints as {@code 0}.
   */
  public static String format(long mb) {
    if (mb == 0) {
      return "0";
    }
    long abs = Math.abs(mb);
    int exp = 0;
    long divisor = 1; // 1024^exp
    while (exp + 1 < UNITS.length() && abs / divisor >= 1024 && abs % (512 * divisor) == 0) {
      divisor *= 1024;
      exp++;
    }
    String sign = mb < 0 ? "-" : "";
    if (abs % divisor == 0) {
      return sign + abs / divisor + UNITS.charAt(exp);
    }
    // Only x.5 can occur (a multiple of 512 divided by 1024), so two decimals are exact.
    BigDecimal v = BigDecimal.valueOf(abs).divide(BigDecimal.valueOf(divisor)).setScale(2, RoundingMode.HALF_UP);
    return sign + v.toPlainString() + UNITS.charAt(exp);
  }
}

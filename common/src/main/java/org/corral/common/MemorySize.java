package org.corral.common;

/** Memory sizes as Slurm takes them: a number with an optional K, M, G or T suffix; MB by default. */
public final class MemorySize {
  private MemorySize() {}

  /** Parses a size into megabytes (K rounds up to whole MB). */
  public static long parseMb(String s) {
    String t = s.trim();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("Invalid memory size: '" + s + "'");
    }
    char last = Character.toUpperCase(t.charAt(t.length() - 1));
    String num = Character.isLetter(last) ? t.substring(0, t.length() - 1) : t;
    long n;
    try {
      n = Long.parseLong(num);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid memory size: '" + s + "'");
    }
    if (n < 0) {
      throw new IllegalArgumentException("Invalid memory size: '" + s + "'");
    }
    return switch (Character.isLetter(last) ? last : 'M') {
      case 'K' -> (n + 1023) / 1024;
      case 'M' -> n;
      case 'G' -> n * 1024;
      case 'T' -> n * 1024 * 1024;
      default -> throw new IllegalArgumentException("Invalid memory size: '" + s + "'");
    };
  }

  /** Megabytes as Slurm shows a memory amount with a unit: {@code 500M}, {@code 8G}, {@code 2T}. */
  public static String format(long mb) {
    if (mb >= 1024L * 1024 && mb % (1024L * 1024) == 0) {
      return mb / (1024L * 1024) + "T";
    }
    if (mb >= 1024 && mb % 1024 == 0) {
      return mb / 1024 + "G";
    }
    return mb + "M";
  }
}

package org.corral.common.config;

import java.util.Locale;
import org.corral.common.MemorySize;
import org.corral.common.SlurmDuration;

/** Typed readings of configuration values; a bad value is a {@link ConfigException} naming file, line and key. */
final class ConfValues {
  private ConfValues() {}

  static int intValue(ConfLine line, String key, String value, int min) throws ConfigException {
    long v = longValue(line, key, value, min);
    if (v > Integer.MAX_VALUE) {
      throw line.invalid(key, value);
    }
    return (int) v;
  }

  static long longValue(ConfLine line, String key, String value, long min) throws ConfigException {
    String t = value.trim();
    if (t.isEmpty() || t.length() > 19 || !digitsOrMinus(t)) {
      throw line.invalid(key, value);
    }
    try {
      long v = Long.parseLong(t);
      if (v < min) {
        throw line.invalid(key, value);
      }
      return v;
    } catch (NumberFormatException e) {
      throw line.invalid(key, value);
    }
  }

  /** A loop, not a stream: every command reads slurm.conf's ports on start-up. */
  private static boolean digitsOrMinus(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if ((c < '0' || c > '9') && c != '-') {
        return false;
      }
    }
    return true;
  }

  /** A count that may be UNLIMITED/INFINITE ({@link SlurmDuration#INFINITE}). */
  static long countOrUnlimited(ConfLine line, String key, String value) throws ConfigException {
    if (isUnlimited(value)) {
      return SlurmDuration.INFINITE;
    }
    return longValue(line, key, value, 0);
  }

  static boolean isUnlimited(String value) {
    String t = value.trim();
    return t.equalsIgnoreCase("UNLIMITED") || t.equalsIgnoreCase("INFINITE");
  }

  /** Slurm's booleans: YES/NO, TRUE/FALSE, 1/0, any case. */
  static boolean bool(ConfLine line, String key, String value) throws ConfigException {
    return switch (value.trim().toUpperCase(Locale.ROOT)) {
      case "YES", "TRUE", "1" -> true;
      case "NO", "FALSE", "0" -> false;
      default -> throw line.invalid(key, value);
    };
  }

  static long minutes(ConfLine line, String key, String value) throws ConfigException {
    try {
      return SlurmDuration.parseMinutes(value);
    } catch (IllegalArgumentException e) {
      throw line.invalid(key, value);
    }
  }

  static long megabytes(ConfLine line, String key, String value) throws ConfigException {
    try {
      return MemorySize.parseMb(value);
    } catch (IllegalArgumentException e) {
      throw line.invalid(key, value);
    }
  }

  /** One of the given words, returned upper-cased. */
  static String oneOf(ConfLine line, String key, String value, String... allowed) throws ConfigException {
    String up = value.trim().toUpperCase(Locale.ROOT);
    for (String a : allowed) {
      if (a.equals(up)) {
        return up;
      }
    }
    throw line.invalid(key, value);
  }
}

package org.corral.cli.scancel;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The signals scancel accepts by name (with or without "SIG", any case), as Slurm 22.05 does,
 * or by number. Linux numbering.
 */
public final class SignalNames {

  static final int SIGKILL = 9;

  private static final Map<String, Integer> BY_NAME = Map.ofEntries(
      Map.entry("HUP", 1), Map.entry("INT", 2), Map.entry("QUIT", 3), Map.entry("ABRT", 6),
      Map.entry("KILL", 9), Map.entry("USR1", 10), Map.entry("USR2", 12), Map.entry("ALRM", 14),
      Map.entry("TERM", 15), Map.entry("CONT", 18), Map.entry("STOP", 19), Map.entry("TSTP", 20),
      Map.entry("TTIN", 21), Map.entry("TTOU", 22), Map.entry("URG", 23), Map.entry("XCPU", 24));

  /** Largest number accepted: Linux's last real-time signal. */
  private static final int MAX_SIGNAL = 64;

  private SignalNames() {}

  /** The signal's number, or empty when the text names no signal scancel can send. */
  public static OptionalInt parse(String text) {
    String t = text.strip();
    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
      if (t.length() > 3) {
        return OptionalInt.empty();
      }
      int n = Integer.parseInt(t);
      return n >= 1 && n <= MAX_SIGNAL ? OptionalInt.of(n) : OptionalInt.empty();
    }
    String name = t.toUpperCase(Locale.ROOT);
    if (name.startsWith("SIG")) {
      name = name.substring(3);
    }
    Integer n = BY_NAME.get(name);
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }
}

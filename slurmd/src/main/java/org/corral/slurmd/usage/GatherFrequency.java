package org.corral.slurmd.usage;

import java.util.Locale;

/**
 * slurm.conf's JobAcctGatherFrequency: a number of seconds, or a list such as
 * "task=30,energy=0"; the task interval is what usage sampling follows. 30 s by default; 0
 * turns periodic sampling off (sstat still samples when it asks).
 */
public final class GatherFrequency {
  public static final int DEFAULT_SECONDS = 30;

  private GatherFrequency() {}

  public static int taskSeconds(String value) {
    String v = value.strip();
    if (v.isEmpty()) {
      return DEFAULT_SECONDS;
    }
    for (String part : v.split(",")) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      String number = p.startsWith("task=") ? p.substring(5) : p.contains("=") ? null : p;
      if (number != null) {
        try {
          return Math.max(0, Integer.parseInt(number));
        } catch (NumberFormatException e) {
          return DEFAULT_SECONDS;
        }
      }
    }
    return DEFAULT_SECONDS;
  }
}

package org.corral.common.config;

import java.util.List;
import java.util.Locale;

/**
 * How large a job submission may be, checked before it costs the controller anything: the batch
 * script (Slurm's {@code SchedulerParameters=max_script_size}, 4 MB by default, at most 512 MB),
 * the environment and the arguments. Slurm refuses a larger script with "Pathname of a file,
 * directory or other parameter too long" (ESLURM_PATHNAME_TOO_LONG); Corral refuses an
 * environment or argument list beyond its bounds the same way. The bounds are well above what
 * Linux lets a process pass to exec (ARG_MAX, 2 MB with the usual 8 MB stack), so no command
 * line a user can run is refused; they bound what a hostile client can send.
 *
 * @param maxScriptBytes the largest batch script, in bytes
 */
public record SubmitLimits(int maxScriptBytes) {
  public static final int DEFAULT_SCRIPT_BYTES = 4 * 1024 * 1024;
  /** Slurm's ceiling for max_script_size. */
  public static final int MAX_SCRIPT_BYTES = 512 * 1024 * 1024;
  public static final int MAX_ENV_BYTES = 4 * 1024 * 1024;
  public static final int MAX_ENV_ENTRIES = 64 * 1024;
  public static final int MAX_ARGV_BYTES = 1024 * 1024;
  public static final int MAX_ARGV_ENTRIES = 64 * 1024;
  /** Room for the rest of a request: options, names, paths. */
  private static final int OTHER_BYTES = 256 * 1024;

  public static final SubmitLimits DEFAULT = new SubmitLimits(DEFAULT_SCRIPT_BYTES);

  public SubmitLimits {
    if (maxScriptBytes < 0 || maxScriptBytes > MAX_SCRIPT_BYTES) {
      throw new IllegalArgumentException("max_script_size must be 0-" + MAX_SCRIPT_BYTES);
    }
  }

  /** The limits a SchedulerParameters value sets (max_script_size=BYTES). */
  public static SubmitLimits of(String schedulerParameters) {
    for (String item : schedulerParameters.split(",")) {
      int eq = item.indexOf('=');
      if (eq > 0 && item.substring(0, eq).trim().toLowerCase(Locale.ROOT).equals("max_script_size")) {
        String v = item.substring(eq + 1).trim();
        try {
          return new SubmitLimits(Integer.parseInt(v));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("invalid value for SchedulerParameters: max_script_size="
              + v + " (allowed 0-" + MAX_SCRIPT_BYTES + ")", e);
        }
      }
    }
    return DEFAULT;
  }

  /** The largest request frame a submission within these limits needs. */
  public int requestBytes() {
    return maxScriptBytes + MAX_ENV_BYTES + MAX_ARGV_BYTES + OTHER_BYTES;
  }

  /** What is over its limit in a submission (its script's size in bytes), or null when nothing is. */
  public String excess(long scriptBytes, List<String> environment, List<String> argv) {
    if (scriptBytes > maxScriptBytes) {
      return "job script of " + scriptBytes + " bytes is over max_script_size (" + maxScriptBytes + ")";
    }
    String env = excess("environment", environment, MAX_ENV_ENTRIES, MAX_ENV_BYTES);
    return env != null ? env : excess("arguments", argv, MAX_ARGV_ENTRIES, MAX_ARGV_BYTES);
  }

  private static String excess(String what, List<String> items, int maxEntries, int maxBytes) {
    if (items.size() > maxEntries) {
      return what + ": " + items.size() + " entries, over " + maxEntries;
    }
    long bytes = 0;
    for (String s : items) {
      bytes += utf8Length(s) + 1; // as exec counts them: with their NUL
    }
    return bytes > maxBytes ? what + ": " + bytes + " bytes, over " + maxBytes : null;
  }

  private static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}

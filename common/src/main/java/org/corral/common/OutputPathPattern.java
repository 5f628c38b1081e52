package org.corral.common;

/**
 * Expands the filename patterns of sbatch's and srun's --output/--error/--input as Slurm 22.05
 * does: %j %J %A (job id), %a (array index: 4294967294 outside an array), %s (step: "batch" for
 * a batch job), %n (node id), %t (task id), %x (job name), %u (user name), %N (short host
 * name), %% ("%"); a batch job is node 0, task 0. A number after
 * the % zero-pads numeric values; unknown specifiers stay as written. A pattern containing a
 * backslash is not expanded at all, only unescaped ("\X" becomes "X"). The node daemon expands
 * them to open the files; the controller, to show them (without a host: %N stays).
 */
public final class OutputPathPattern {
  /** The array index Slurm substitutes for %a when the job is not part of an array. */
  static final String NO_ARRAY_INDEX = "4294967294";

  /**
   * What a pattern can refer to. {@code arrayTaskId} is negative outside an array, where
   * {@code arrayJobId} is the job id.
   */
  public record Fields(int jobId, String jobName, String userName, String hostName, String step, int nodeId,
      int taskId, int arrayJobId, int arrayTaskId) {
    public Fields(int jobId, String jobName, String userName, String hostName, String step, int nodeId,
        int taskId) {
      this(jobId, jobName, userName, hostName, step, nodeId, taskId, jobId, -1);
    }

    /** A batch job's: step "batch", node 0, task 0. */
    public Fields(int jobId, String jobName, String userName, String hostName) {
      this(jobId, jobName, userName, hostName, "batch", 0, 0);
    }

    /** The same, for task {@code arrayTaskId} (negative: none) of array {@code arrayJobId}. */
    public Fields inArray(int arrayJobId, int arrayTaskId) {
      return arrayJobId == 0 ? this
          : new Fields(jobId, jobName, userName, hostName, step, nodeId, taskId, arrayJobId, arrayTaskId);
    }
  }

  private OutputPathPattern() {}

  /** The expanded pattern as an absolute path: a relative one sits in the work directory. */
  public static String resolve(String workDir, String pattern, Fields fields) {
    String path = expand(pattern, fields);
    return path.startsWith("/") ? path : (workDir.endsWith("/") ? workDir : workDir + "/") + path;
  }

  public static String expand(String pattern, Fields fields) {
    if (pattern.indexOf('\\') >= 0) {
      return unescape(pattern);
    }
    StringBuilder out = new StringBuilder(pattern.length() + 16);
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c != '%') {
        out.append(c);
        i++;
        continue;
      }
      int digitsEnd = i + 1;
      while (digitsEnd < pattern.length() && Character.isDigit(pattern.charAt(digitsEnd))) {
        digitsEnd++;
      }
      if (digitsEnd >= pattern.length()) {
        out.append(pattern, i, pattern.length());
        break;
      }
      int width = digitsEnd > i + 1 ? parseWidth(pattern.substring(i + 1, digitsEnd)) : 0;
      String value = value(pattern.charAt(digitsEnd), width, digitsEnd == i + 1, fields);
      out.append(value != null ? value : pattern.substring(i, digitsEnd + 1));
      i = digitsEnd + 1;
    }
    return out.toString();
  }

  private static String value(char specifier, int width, boolean noWidth, Fields f) {
    return switch (specifier) {
      case '%' -> noWidth ? "%" : null;
      case 'j', 'J' -> pad(Integer.toUnsignedString(f.jobId()), width);
      case 'A' -> pad(Integer.toUnsignedString(f.arrayJobId()), width);
      case 'a' -> pad(f.arrayTaskId() < 0 ? NO_ARRAY_INDEX : Integer.toString(f.arrayTaskId()), width);
      case 'n' -> pad(Integer.toString(f.nodeId()), width);
      case 't' -> pad(Integer.toString(f.taskId()), width);
      case 's' -> f.step().chars().allMatch(Character::isDigit) ? pad(f.step(), width) : f.step();
      case 'x' -> f.jobName();
      case 'u' -> f.userName();
      case 'N' -> f.hostName(); // null (unknown) keeps %N as written
      default -> null;
    };
  }

  private static int parseWidth(String digits) {
    // A silly width must not make a daemon allocate gigabytes.
    return digits.length() > 3 ? 999 : Integer.parseInt(digits);
  }

  private static String pad(String number, int width) {
    return number.length() >= width ? number : "0".repeat(width - number.length()) + number;
  }

  private static String unescape(String pattern) {
    StringBuilder out = new StringBuilder(pattern.length());
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        if (++i < pattern.length()) {
          out.append(pattern.charAt(i));
        }
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}

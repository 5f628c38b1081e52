package org.corral.cli.submit;

import org.corral.common.MemorySize;
import org.corral.common.SlurmDuration;

/**
 * Parsers for the option values sbatch, srun and salloc share (node counts, task counts,
 * times, memory sizes), failing with Slurm's messages under the given program's name.
 */
public final class OptionValues {

  private OptionValues() {}

  /** A node count "N" or range "MIN-MAX" ("MIN-" means MIN, "-MAX" 1 to MAX): {min, max}. */
  public static int[] nodeRange(String program, String value) throws CommandFailure {
    String v = value == null ? "" : value.trim();
    int dash = v.indexOf('-');
    Integer min = dash == 0 && v.length() > 1 ? Integer.valueOf(1) : count(dash < 0 ? v : v.substring(0, dash));
    Integer max = dash < 0 ? min : (dash == v.length() - 1 ? min : count(v.substring(dash + 1)));
    if (min == null || max == null) {
      throw CommandFailure.invalid(program, "\"" + value + "\" is not a valid node count");
    }
    if (max < min) {
      throw CommandFailure.invalid(program,
          "Maximum node count " + max + " is less than minimum node count " + min);
    }
    return new int[] {min, max};
  }

  /** A positive count, e.g. for --ntasks. */
  public static int positive(String program, String value, String option) throws CommandFailure {
    Integer n = value == null ? null : count(value.trim());
    if (n == null || n <= 0) {
      throw CommandFailure.error(program, "Invalid numeric value \"" + value + "\" for " + option + ".");
    }
    return n;
  }

  /** A time limit in minutes (--time). */
  public static long minutes(String program, String value) throws CommandFailure {
    try {
      return SlurmDuration.parseMinutes(value);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.invalid(program, "Invalid --time specification");
    }
  }

  /** A memory size in megabytes (--mem, --mem-per-cpu). */
  public static long memoryMb(String program, String value, String option) throws CommandFailure {
    try {
      return MemorySize.parseMb(value);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.invalid(program, "Invalid " + option + " specification");
    }
  }

  /**
   * Both --mem and --mem-per-cpu given: Slurm refuses them together, except that one set only
   * through the environment yields to the other. True when --mem-per-cpu is the one kept.
   */
  public static boolean keepMemPerCpu(String program, boolean memFromEnvironment,
      boolean perCpuFromEnvironment) throws CommandFailure {
    if (memFromEnvironment != perCpuFromEnvironment) {
      return memFromEnvironment;
    }
    throw CommandFailure.fatal(program, "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
  }

  /** --open-mode: Slurm looks only at the first letter, a(ppend) or t(runcate). */
  public static String openMode(String program, String value) throws CommandFailure {
    char c = value == null || value.isEmpty() ? ' ' : Character.toLowerCase(value.charAt(0));
    return switch (c) {
      case 'a' -> "append";
      case 't' -> "truncate";
      default -> throw CommandFailure.invalid(program, "Invalid --open-mode specification");
    };
  }

  private static Integer count(String s) {
    if (s.isEmpty() || !s.chars().allMatch(Character::isDigit) || s.length() > 9) {
      return null;
    }
    return Integer.parseInt(s);
  }
}

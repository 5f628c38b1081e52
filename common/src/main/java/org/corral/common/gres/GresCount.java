package org.corral.common.gres;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One generic resource count as Slurm writes it: a name, an optional type and a count
 * ({@code gpu:a100:2}, {@code nic:1}). Node lines (slurm.conf Gres=), requests (--gres, --gpus*)
 * and the job's TRES strings ({@code gres:gpu:a100:2}) all read and write this form.
 */
public record GresCount(String name, String type, long count) {
  private static final String UNITS = "KMGTP";

  public GresCount {
    type = type == null ? "" : type;
  }

  /** {@code gpu:a100:2}, or {@code gpu:2} when untyped. */
  public String plain() {
    return name + (type.isEmpty() ? "" : ":" + type) + ":" + count;
  }

  /**
   * A comma-separated list of {@code name[:type][:count]} (a leading {@code gres:} or
   * {@code gres/} on an entry is dropped); the count defaults to 1 and takes K/M/G/T/P
   * (powers of 1024). Throws IllegalArgumentException when malformed.
   */
  public static List<GresCount> parseList(String text) {
    List<GresCount> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String raw : text.split(",")) {
      String e = raw.trim();
      if (e.startsWith("gres:") || e.startsWith("gres/")) {
        e = e.substring(5);
      }
      if (e.isEmpty()) {
        throw new IllegalArgumentException("empty generic resource in " + text);
      }
      String[] parts = e.split(":", -1);
      if (parts.length > 3 || parts[0].isEmpty()) {
        throw new IllegalArgumentException("bad generic resource " + raw);
      }
      String name = parts[0];
      String type = "";
      long count = 1;
      if (parts.length == 2) {
        if (isCount(parts[1])) {
          count = count(parts[1]);
        } else {
          type = parts[1];
        }
      } else if (parts.length == 3) {
        type = parts[1];
        count = count(parts[2]);
      }
      if (type.isEmpty() && parts.length == 3) {
        throw new IllegalArgumentException("bad generic resource " + raw);
      }
      out.add(new GresCount(name, type, count));
    }
    return out;
  }

  /**
   * {@code --gpus}-style: {@code [type:]count} of GPUs ({@code 2}, {@code a100:2}); a list of
   * them separated by commas.
   */
  public static List<GresCount> parseGpus(String text) {
    List<GresCount> out = new ArrayList<>();
    for (String raw : text.split(",")) {
      String e = raw.trim();
      String[] parts = e.split(":", -1);
      if (parts.length == 1 && isCount(parts[0])) {
        out.add(new GresCount("gpu", "", count(parts[0])));
      } else if (parts.length == 2 && !parts[0].isEmpty() && isCount(parts[1])) {
        out.add(new GresCount("gpu", parts[0], count(parts[1])));
      } else if (parts.length == 3 && parts[0].equals("gpu") && isCount(parts[2])) {
        out.add(new GresCount("gpu", parts[1], count(parts[2])));
      } else {
        throw new IllegalArgumentException("bad GPU count " + raw);
      }
    }
    return out;
  }

  /** Slurm's TRES form of a list: {@code gres:gpu:2,gres:nic:1}; "" when empty. */
  public static String toTres(List<GresCount> list) {
    StringBuilder b = new StringBuilder();
    for (GresCount g : list) {
      b.append(b.isEmpty() ? "" : ",").append("gres:").append(g.plain());
    }
    return b.toString();
  }

  /** The plain form of a list: {@code gpu:2,nic:1}. */
  public static String toPlain(List<GresCount> list) {
    StringBuilder b = new StringBuilder();
    for (GresCount g : list) {
      b.append(b.isEmpty() ? "" : ",").append(g.plain());
    }
    return b.toString();
  }

  private static boolean isCount(String s) {
    if (s.isEmpty() || !Character.isDigit(s.charAt(0))) {
      return false;
    }
    String digits = UNITS.indexOf(Character.toUpperCase(s.charAt(s.length() - 1))) >= 0
        ? s.substring(0, s.length() - 1) : s;
    return !digits.isEmpty() && digits.chars().allMatch(Character::isDigit);
  }

  private static long count(String s) {
    if (!isCount(s)) {
      throw new IllegalArgumentException("bad count " + s);
    }
    char last = Character.toUpperCase(s.charAt(s.length() - 1));
    int exp = UNITS.indexOf(last);
    String digits = exp >= 0 ? s.substring(0, s.length() - 1) : s;
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad count " + s);
    }
    long factor = exp >= 0 ? 1L << (10 * (exp + 1)) : 1;
    if (n > Long.MAX_VALUE / factor) {
      throw new IllegalArgumentException("count too large " + s);
    }
    return n * factor;
  }

  /** Lower-cased names compare as Slurm compares them (case-insensitively). */
  public boolean sameName(String other) {
    return name.toLowerCase(Locale.ROOT).equals(other.toLowerCase(Locale.ROOT));
  }
}

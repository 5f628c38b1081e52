package org.corral.common;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A trackable-resources string such as {@code cpu=4,mem=8G,node=1,billing=4,gres/gpu:a100=2}: an
 * ordered map from TRES name to count. Memory ({@code mem}) is held in MB and printed as Slurm
 * prints it ({@link MemorySize#format}); every other count is a plain number. Immutable.
 */
public final class Tres {
  /** The memory TRES, counted in MB. */
  public static final String MEM = "mem";

  private static final Tres EMPTY = new Tres(new LinkedHashMap<>());

  private final Map<String, Long> counts;

  private Tres(LinkedHashMap<String, Long> counts) {
    this.counts = Collections.unmodifiableMap(counts);
  }

  /** The empty TRES (prints as an empty string, as scontrol's {@code AllocTRES=}). */
  public static Tres empty() {
    return EMPTY;
  }

  /** A TRES with these counts, in the map's iteration order (mem in MB). */
  public static Tres of(Map<String, Long> counts) {
    LinkedHashMap<String, Long> copy = new LinkedHashMap<>();
    counts.forEach((k, v) -> copy.put(checkName(k, k), checkCount(k, Objects.requireNonNull(v), k)));
    return new Tres(copy);
  }

  /**
   * Parses {@code name=count[,name=count...]}; mem takes sizes ({@code 8G}, {@code 1.50G}, MB
   * when bare). Blank text is the empty TRES.
   *
   * @throws IllegalArgumentException "Invalid TRES specification: 'S'" naming the bad part
   */
  public static Tres parse(String text) {
    LinkedHashMap<String, Long> out = new LinkedHashMap<>();
    if (text.isBlank()) {
      return EMPTY;
    }
    for (String item : text.trim().split(",", -1)) {
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw invalid(text, "expected name=count, got '" + item + "'");
      }
      String name = checkName(item.substring(0, eq).trim(), text);
      String value = item.substring(eq + 1).trim();
      long count;
      try {
        count = name.equals(MEM) ? MemorySize.parseFormattedMb(value) : Long.parseLong(value);
      } catch (IllegalArgumentException e) {
        throw invalid(text, "invalid count for " + name + ": '" + value + "'");
      }
      if (out.put(name, checkCount(name, count, text)) != null) {
        throw invalid(text, "duplicate " + name);
      }
    }
    return new Tres(out);
  }

  private static String checkName(String name, String context) {
    if (name.isEmpty() || name.chars().anyMatch(c -> c == ',' || c == '=' || Character.isWhitespace(c))) {
      throw invalid(context, "invalid name '" + name + "'");
    }
    return name;
  }

  private static long checkCount(String name, long count, String context) {
    if (count < 0) {
      throw invalid(context, "negative count for " + name);
    }
    return count;
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException("Invalid TRES specification: '" + text + "': " + why);
  }

  /** Name to count, in order (mem in MB). */
  public Map<String, Long> counts() {
    return counts;
  }

  /** The count of a TRES, 0 when absent. */
  public long get(String name) {
    return counts.getOrDefault(name, 0L);
  }

  public boolean isEmpty() {
    return counts.isEmpty();
  }

  /** A copy with this count set: replaced in place when present, else appended. */
  public Tres with(String name, long count) {
    LinkedHashMap<String, Long> copy = new LinkedHashMap<>(counts);
    copy.put(checkName(name, name), checkCount(name, count, name));
    return new Tres(copy);
  }

  /** Slurm's text form, e.g. {@code cpu=4,mem=1.50G,node=1,billing=4}. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    counts.forEach((name, count) -> {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(name).append('=').append(name.equals(MEM) ? MemorySize.format(count) : Long.toString(count));
    });
    return sb.toString();
  }

  @Override
  public String toString() {
    return format();
  }

  @Override
  public boolean equals(Object o) {
    // Order is part of the value: it is what gets printed.
    return o instanceof Tres t && counts.equals(t.counts)
        && String.join(",", counts.keySet()).equals(String.join(",", t.counts.keySet()));
  }

  @Override
  public int hashCode() {
    return counts.hashCode();
  }
}

package org.corral.common.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** The slurm.conf keys whose values differ between two readings (what a reconfigure logs). */
public final class ChangedKeys {
  private ChangedKeys() {}

  /** Keys set in either whose values differ, in name order; {@code applied} (lower case) left out. */
  public static List<String> between(SlurmConfig old, SlurmConfig next, Set<String> applied) {
    Map<String, String> a = old.entries();
    Map<String, String> b = next.entries();
    Set<String> keys = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    keys.addAll(a.keySet());
    keys.addAll(b.keySet());
    keys.removeIf(k -> applied.contains(k.toLowerCase(Locale.ROOT)) || Objects.equals(a.get(k), b.get(k)));
    return List.copyOf(keys);
  }
}

package org.corral.common.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What NodeName and PartitionName lines share: a {@code NAME=DEFAULT} line sets values for the
 * lines after it, each line's own values win, and keys the record type lacks draw a warning.
 */
final class RecordDefaults {
  private final Map<String, ConfPair> defaults = new LinkedHashMap<>();

  /** Adds a warning for each key of the line that this record type does not have. */
  static void checkKeys(ConfLine line, String kind, Set<String> keys, List<String> warnings) {
    for (ConfPair p : line.pairs()) {
      if (!keys.contains(p.key().toLowerCase(Locale.ROOT))) {
        warnings.add(SlurmConfig.where(line) + ": unknown key " + p.key() + " for " + kind);
      }
    }
  }

  /**
   * The line's values (lower-case keys) over the defaults so far; empty for a DEFAULT line,
   * which only records its values as the new defaults.
   */
  Optional<Map<String, String>> values(ConfLine line) {
    if (line.firstValue().equalsIgnoreCase("DEFAULT")) {
      for (ConfPair p : line.pairs().subList(1, line.pairs().size())) {
        defaults.put(p.key().toLowerCase(Locale.ROOT), p);
      }
      return Optional.empty();
    }
    Map<String, String> v = new LinkedHashMap<>();
    defaults.forEach((k, p) -> v.put(k, p.value()));
    for (ConfPair p : line.pairs()) {
      v.put(p.key().toLowerCase(Locale.ROOT), p.value());
    }
    return Optional.of(v);
  }
}

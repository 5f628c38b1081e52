package org.corral.common.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** One logical line of a Slurm-style configuration file: its pairs, in order, and where it came from. */
public record ConfLine(Path file, int line, List<ConfPair> pairs) {
  public ConfLine {
    pairs = List.copyOf(pairs);
  }

  /** The first pair's key: for record lines (NodeName=..., Name=...) it says what the line is. */
  public String firstKey() {
    return pairs.get(0).key();
  }

  public String firstValue() {
    return pairs.get(0).value();
  }

  /** The value of a key on this line, matched case-insensitively; the last one if repeated. */
  public Optional<String> get(String key) {
    String found = null;
    for (ConfPair p : pairs) {
      if (p.key().equalsIgnoreCase(key)) {
        found = p.value();
      }
    }
    return Optional.ofNullable(found);
  }

  /** An exception for a bad value of one of this line's keys. */
  public ConfigException invalid(String key, String value) {
    return ConfigException.invalidValue(file, line, key, value);
  }

  /** An exception about this line. */
  public ConfigException error(String key, String detail) {
    return new ConfigException(file, line, key, detail);
  }
}

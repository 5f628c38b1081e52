package org.corral.common.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.corral.common.Hostlist;

/** A parsed gres.conf (gres.conf(5)): resource lines and AutoDetect settings. */
public final class GresConf {
  private static final Set<String> KEYS = Set.of("nodename", "name", "type", "file", "count", "cores", "links",
      "flags", "multiplefiles", "autodetect");
  private static final String UNITS = "KMGTP";

  private final List<GresEntry> entries = new ArrayList<>();
  private final Map<String, String> nodeAutoDetect = new LinkedHashMap<>();
  private final List<String> warnings = new ArrayList<>();
  private String autoDetect;

  private GresConf(List<ConfLine> lines) throws ConfigException {
    for (ConfLine line : lines) {
      add(line);
    }
  }

  public static GresConf load(Path file) throws ConfigException {
    return new GresConf(ConfReader.read(file));
  }

  public static GresConf parse(String text, Path nominalPath) throws ConfigException {
    return new GresConf(ConfReader.parse(text, nominalPath));
  }

  private void add(ConfLine line) throws ConfigException {
    for (ConfPair p : line.pairs()) {
      if (!KEYS.contains(p.key().toLowerCase(Locale.ROOT))) {
        warnings.add(SlurmConfig.where(line) + ": unknown key " + p.key());
      }
    }
    List<String> nodes = line.get("NodeName").isPresent() ? expand(line, "NodeName", line.get("NodeName").get())
        : List.of();
    Optional<String> detect = line.get("AutoDetect").map(s -> s.trim().toLowerCase(Locale.ROOT));
    if (detect.isPresent()) {
      ConfValues.oneOf(line, "AutoDetect", detect.get(), "NVML", "NVIDIA", "RSMI", "ONEAPI", "NRT", "OFF");
    }
    if (line.get("Name").isEmpty()) {
      if (detect.isEmpty()) {
        throw line.error("Name", "missing Name= on a gres.conf line");
      }
      if (nodes.isEmpty()) {
        autoDetect = detect.get();
      } else {
        nodes.forEach(n -> nodeAutoDetect.put(n, detect.get()));
      }
      return;
    }
    List<String> files = line.get("File").isPresent() ? expand(line, "File", line.get("File").get()) : List.of();
    List<String> multiple = line.get("MultipleFiles").isPresent()
        ? expand(line, "MultipleFiles", line.get("MultipleFiles").get()) : List.of();
    if (!files.isEmpty() && !multiple.isEmpty()) {
      throw line.error("MultipleFiles", "File and MultipleFiles are mutually exclusive");
    }
    long count = line.get("Count").isPresent() ? count(line, line.get("Count").get())
        : !files.isEmpty() ? files.size() : 1;
    entries.add(new GresEntry(nodes, line.get("Name").get(), line.get("Type").orElse(""), files, count,
        line.get("Cores").orElse(""), line.get("Links").orElse(""), line.get("Flags").orElse(""), multiple,
        detect.orElse("")));
  }

  private static List<String> expand(ConfLine line, String key, String expr) throws ConfigException {
    try {
      return Hostlist.expand(expr);
    } catch (IllegalArgumentException e) {
      throw line.invalid(key, expr);
    }
  }

  /** A count with an optional K/M/G/T/P suffix, each a factor of 1024. */
  private static long count(ConfLine line, String value) throws ConfigException {
    String t = value.trim();
    int exp = t.isEmpty() ? -1 : UNITS.indexOf(Character.toUpperCase(t.charAt(t.length() - 1)));
    String digits = exp >= 0 ? t.substring(0, t.length() - 1) : t;
    long n = ConfValues.longValue(line, "Count", digits, 0);
    long factor = exp >= 0 ? 1L << (10 * (exp + 1)) : 1;
    if (n > Long.MAX_VALUE / factor) {
      throw line.invalid("Count", value);
    }
    return n * factor;
  }

  /** Every resource line, in file order. */
  public List<GresEntry> entries() {
    return Collections.unmodifiableList(entries);
  }

  /** The resource lines that apply to one node. */
  public List<GresEntry> forNode(String node) {
    return entries.stream().filter(e -> e.appliesTo(node)).toList();
  }

  /** AutoDetect for a node (lower case, e.g. nvml, off): its own setting, else the file-wide one. */
  public Optional<String> autoDetect(String node) {
    return Optional.ofNullable(nodeAutoDetect.getOrDefault(node, autoDetect));
  }

  public List<String> warnings() {
    return Collections.unmodifiableList(warnings);
  }
}

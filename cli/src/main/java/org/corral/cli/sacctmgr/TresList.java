package org.corral.cli.sacctmgr;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A TRES limit as sacctmgr takes and shows it ("cpu=4,mem=1000M"): a new value changes only the
 * TRES it names (NAME=-1 removes one), and the result lists them in Slurm's TRES order (cpu,
 * mem, energy, node, billing, fs/disk, vmem, pages, then gres/ and license/ by name) with memory
 * in the largest unit that divides it, as Slurm stores and prints them.
 */
final class TresList {
  private TresList() {}

  private static final List<String> ORDER = List.of("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages");

  private static final Comparator<String> SLURM_ORDER = Comparator
      .comparingInt((String n) -> ORDER.contains(n) ? ORDER.indexOf(n) : ORDER.size())
      .thenComparing(Comparator.naturalOrder());

  /**
   * {@code old} changed by option {@code o} shown as {@code label} in errors ("GrpTRESMins").
   * A bare -1 is refused as Slurm refuses it (no TRES id -1).
   */
  static String merge(String old, Args.Opt o, String label) throws Limits.BadValue {
    Map<String, Long> tres = parse(old);
    for (String part : o.list()) {
      int eq = part.indexOf('=');
      String name = eq > 0 ? part.substring(0, eq).trim().toLowerCase(Locale.ROOT) : part;
      if (eq <= 0 || !known(name)) {
        throw unknown(o, label, eq <= 0 ? "no TRES id found for " + part : "no TRES known by type " + name);
      }
      String v = part.substring(eq + 1).trim();
      if (v.equals("-1")) {
        tres.remove(name);
        continue;
      }
      Long n = amount(name, v);
      if (n == null) {
        throw unknown(o, label, "no TRES known by type " + name);
      }
      tres.put(name, n);
    }
    return format(tres);
  }

  private static Limits.BadValue unknown(Args.Opt o, String label, String why) {
    return new Limits.BadValue("sacctmgr: error: slurmdb_format_tres_str: " + why,
        "Unknown option: " + label + o.op() + o.value() + "\n Use keyword 'where' to modify condition");
  }

  private static boolean known(String name) {
    return ORDER.contains(name) || name.startsWith("gres/") || name.startsWith("license/") || name.startsWith("bb/");
  }

  /** A TRES amount; memory in MB (K, M, G, T suffixes), others plain counts; null when unreadable. */
  private static Long amount(String name, String v) {
    String u = v.toUpperCase(Locale.ROOT);
    long mult = 1;
    if (name.equals("mem") && !u.isEmpty() && Character.isLetter(u.charAt(u.length() - 1))) {
      mult = switch (u.charAt(u.length() - 1)) {
        case 'K' -> -1024; // divides
        case 'M' -> 1;
        case 'G' -> 1024;
        case 'T' -> 1024L * 1024;
        default -> 0;
      };
      u = u.substring(0, u.length() - 1);
    }
    try {
      long n = Long.parseLong(u);
      if (n < 0 || mult == 0) {
        return null;
      }
      return mult < 0 ? n / -mult : n * mult;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Map<String, Long> parse(String text) {
    Map<String, Long> out = new TreeMap<>(SLURM_ORDER);
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String part : text.split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        String name = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        Long n = amount(name, part.substring(eq + 1).trim());
        if (n != null) {
          out.put(name, n);
        }
      }
    }
    return out;
  }

  static String format(Map<String, Long> tres) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Long> e : tres.entrySet()) {
      b.append(b.isEmpty() ? "" : ",").append(e.getKey()).append('=');
      b.append(e.getKey().equals("mem") ? mem(e.getValue()) : Long.toString(e.getValue()));
    }
    return b.toString();
  }

  private static String mem(long mb) {
    if (mb > 0 && mb % (1024L * 1024) == 0) {
      return mb / (1024L * 1024) + "T";
    }
    return mb > 0 && mb % 1024 == 0 ? mb / 1024 + "G" : mb + "M";
  }
}

package org.corral.common.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.corral.common.SlurmDuration;

/**
 * The KEY=VALUE words of {@code scontrol create|update PartitionName=...}, read as Slurm 22.05's
 * scontrol reads them: each key's value checked with scontrol's own message, then normalized
 * (lower-case keys; times in minutes, counts and memory as numbers, {@link SlurmDuration#INFINITE}
 * for UNLIMITED; YES/NO as {@code yes}/{@code no}; words upper case). The controller applies the
 * normalized fields and checks them again (they may come from elsewhere than scontrol).
 */
public final class PartitionSettings {
  /** Keys whose value is YES or NO, with the name scontrol's message gives them. */
  private static final Map<String, String> FLAGS = Map.of("default", "Default", "hidden", "Hidden",
      "rootonly", "RootOnly", "exclusiveuser", "ExclusiveUser", "lln", "LLN", "reqresv", "ReqResv");
  /** Whole-number keys and the name their "Invalid NAME value" message gives them. */
  private static final Map<String, String> NUMBERS = Map.of("gracetime", "GraceTime",
      "priorityjobfactor", "PriorityJobFactor", "prioritytier", "PriorityTier", "priority", "Priority",
      "maxcpuspernode", "MaxCPUsPerNode", "defmempercpu", "DefMemPerCPU", "defmempernode", "DefMemPerNode",
      "maxmempercpu", "MaxMemPerCPU", "maxmempernode", "MaxMemPerNode");
  /** Keys taken as written (lists of names, a hostlist, billing weights). */
  private static final Set<String> TEXT = Set.of("nodes", "allowgroups", "allowaccounts", "allowqos",
      "denyaccounts", "tresbillingweights");
  private static final Set<String> STATES = Set.of("UP", "DOWN", "DRAIN", "INACTIVE");
  private static final Set<String> PREEMPT_WORDS = Set.of("OFF", "CANCEL", "GANG", "REQUEUE", "SUSPEND",
      "WITHIN", "PRIORITY");

  private PartitionSettings() {}

  /**
   * Words scontrol refuses: {@code lines} are its messages (each printed as "scontrol: error: LINE");
   * {@code aborted} when it goes on with the blank line and "Request aborted" (an unknown key).
   */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<String> lines;
    private final boolean aborted;

    Refused(boolean aborted, String... lines) {
      super(String.join("; ", lines));
      this.lines = List.of(lines);
      this.aborted = aborted;
    }

    public List<String> lines() {
      return lines;
    }

    public boolean aborted() {
      return aborted;
    }
  }

  /** What the words say: the fields, and messages for values scontrol skips but reports (MinNodes). */
  public record Parsed(Map<String, String> fields, List<String> warnings) {}

  /** The words' fields, keyed by lower-case name; {@code partitionname} holds the name. */
  public static Parsed parse(List<String> words) throws Refused {
    Map<String, String> f = new LinkedHashMap<>();
    List<String> warnings = new java.util.ArrayList<>();
    for (String w : words) {
      int eq = w.indexOf('=');
      String key = (eq < 0 ? w : w.substring(0, eq)).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : w.substring(eq + 1);
      String up = value.toUpperCase(Locale.ROOT);
      switch (key) {
        case "partitionname", "partition" -> f.put("partitionname", value);
        case "maxtime", "defaulttime" -> f.put(key, Long.toString(minutes(w, value)));
        case "maxnodes" -> f.put(key, Long.toString(count(value, "MaxNodes")));
        case "minnodes" -> {
          try {
            f.put(key, Long.toString(nodeCount(value)));
          } catch (NumberFormatException e) { // reported, and the rest goes on (as the reference)
            warnings.add("\"" + value + "\" is not a valid node count");
          }
        }
        case "state" -> {
          if (!STATES.contains(up)) {
            throw new Refused(false, "Invalid input: " + w, "Acceptable State values are UP, DOWN, DRAIN and INACTIVE");
          }
          f.put(key, up);
        }
        case "oversubscribe", "shared" -> f.put("oversubscribe", oversubscribe(w, up));
        case "preemptmode" -> {
          for (String m : up.split(",", -1)) {
            if (!PREEMPT_WORDS.contains(m)) {
              throw new Refused(false, "Invalid input: " + w);
            }
          }
          f.put(key, up);
        }
        default -> {
          if (FLAGS.containsKey(key)) {
            if (!up.equals("YES") && !up.equals("NO")) {
              throw new Refused(false, "Invalid input: " + w,
                  "Acceptable " + FLAGS.get(key) + " values are YES and NO");
            }
            f.put(key, up.equals("YES") ? "yes" : "no");
          } else if (NUMBERS.containsKey(key)) {
            f.put(key, Long.toString(number(key, value)));
          } else if (TEXT.contains(key)) {
            f.put(key, value);
          } else {
            throw new Refused(true, "Update of this parameter is not supported: " + w);
          }
        }
      }
    }
    return new Parsed(f, warnings);
  }

  private static long minutes(String word, String value) throws Refused {
    try {
      long m = SlurmDuration.parseMinutes(value);
      if (m < 0) {
        throw new IllegalArgumentException(value);
      }
      return m;
    } catch (IllegalArgumentException e) {
      throw new Refused(false, "Invalid input " + word);
    }
  }

  /** A count or UNLIMITED/INFINITE. */
  private static long count(String value, String name) throws Refused {
    if (ConfValues.isUnlimited(value)) {
      return SlurmDuration.INFINITE;
    }
    try {
      return nodeCount(value);
    } catch (NumberFormatException e) {
      throw new Refused(false, "Invalid numeric value \"" + value + "\" for " + name + ".");
    }
  }

  /** A node count: a number, with k/m suffixes as Slurm reads them; negative counts are 0. */
  private static long nodeCount(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    long mult = 1;
    if (v.endsWith("k")) {
      mult = 1024;
      v = v.substring(0, v.length() - 1);
    } else if (v.endsWith("m")) {
      mult = 1024 * 1024;
      v = v.substring(0, v.length() - 1);
    }
    return Math.max(0, Long.parseLong(v) * mult);
  }

  private static long number(String key, String value) throws Refused {
    if (ConfValues.isUnlimited(value) && !key.startsWith("priority") && !key.equals("gracetime")) {
      return key.startsWith("maxcpus") ? SlurmDuration.INFINITE : 0; // memory: 0 is UNLIMITED
    }
    try {
      long n = Long.parseLong(value.trim());
      if (n < 0 || n > 0xFFFFFFFFL && !key.contains("mem")) {
        throw new NumberFormatException(value);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new Refused(false, "Invalid " + NUMBERS.get(key) + " value: " + value);
    }
  }

  private static String oversubscribe(String word, String up) throws Refused {
    int colon = up.indexOf(':');
    String kind = colon < 0 ? up : up.substring(0, colon);
    boolean countOk = colon < 0 || up.substring(colon + 1).matches("[0-9]{1,5}")
        && (kind.equals("YES") || kind.equals("FORCE"));
    if (!Set.of("NO", "YES", "EXCLUSIVE", "FORCE").contains(kind) || !countOk) {
      throw new Refused(false, "Invalid input: " + word,
          "Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#");
    }
    return up;
  }
}

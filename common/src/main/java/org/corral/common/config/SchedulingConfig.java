package org.corral.common.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What slurm.conf says about ordering and placing jobs: the priority plugin and its weights
 * (priority_multifactor.html) and the scheduler with its SchedulerParameters (sched_config.html),
 * with Slurm's defaults.
 *
 * @param multifactor PriorityType=priority/multifactor (else priority/basic: first in, first out)
 * @param maxAgeS PriorityMaxAge: the queue wait at which the age factor reaches 1.0
 * @param favorSmall PriorityFavorSmall: smaller jobs get the larger job size factor
 * @param flags PriorityFlags, upper-case (ACCRUE_ALWAYS, NO_FAIR_TREE, SMALL_RELATIVE_TO_TIME...)
 * @param decayHalfLifeS PriorityDecayHalfLife: past usage counts half after this long (0 = no decay)
 * @param calcPeriodS PriorityCalcPeriod: how often priorities and usage are recalculated
 * @param backfill SchedulerType=sched/backfill (else sched/builtin: strict priority order)
 */
public record SchedulingConfig(boolean multifactor, Weights weights, long maxAgeS, boolean favorSmall,
    Set<String> flags, long decayHalfLifeS, long calcPeriodS, boolean backfill, Backfill params) {

  /** PriorityWeight*: each factor (0.0-1.0) is multiplied by its weight. */
  public record Weights(long age, long assoc, long fairshare, long jobSize, long partition, long qos,
      Map<String, Double> tres) {
    public Weights {
      tres = Collections.unmodifiableMap(new LinkedHashMap<>(tres));
    }

    public static final Weights NONE = new Weights(0, 0, 0, 0, 0, 0, Map.of());
  }

  /**
   * SchedulerParameters for the backfill scheduler.
   *
   * @param intervalS bf_interval: the longest wait between two full passes
   * @param maxJobTest bf_max_job_test: how many pending jobs get a planned start per pass
   * @param resolutionS bf_resolution: planned times are rounded up to this
   * @param windowMin bf_window: how far ahead jobs are planned
   * @param maxJobUser bf_max_job_user: planned jobs per user per pass (0 = no limit)
   * @param queueDepth default_queue_depth
   * @param killInvalidDepend kill_invalid_depend: a job whose dependency can never be met is cancelled
   */
  public record Backfill(int intervalS, int maxJobTest, int resolutionS, int windowMin, int maxJobUser,
      int queueDepth, boolean killInvalidDepend) {
    public Backfill(int intervalS, int maxJobTest, int resolutionS, int windowMin, int maxJobUser, int queueDepth) {
      this(intervalS, maxJobTest, resolutionS, windowMin, maxJobUser, queueDepth, false);
    }

    public static final Backfill DEFAULTS = new Backfill(30, 500, 60, 1440, 0, 100);
  }

  private static final Set<String> KNOWN_FLAGS = Set.of("ACCRUE_ALWAYS", "CALCULATE_RUNNING",
      "DEPTH_OBLIVIOUS", "NO_FAIR_TREE", "INCR_ONLY", "MAX_TRES", "NO_NORMAL_ALL", "NO_NORMAL_ASSOC",
      "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES", "SMALL_RELATIVE_TO_TIME");

  public static final SchedulingConfig DEFAULTS = new SchedulingConfig(false, Weights.NONE, 7 * 86400,
      false, Set.of(), 7 * 86400, 300, true, Backfill.DEFAULTS);

  public boolean hasFlag(String flag) {
    return flags.contains(flag);
  }

  /** Reads and checks the keys; {@code lines} gives a key's line (lower-case key) or null. */
  static SchedulingConfig read(Function<String, ConfLine> lines) throws ConfigException {
    Reader r = new Reader(lines);
    String type = r.word("PriorityType", "PRIORITY/BASIC", "PRIORITY/BASIC", "PRIORITY/MULTIFACTOR");
    Weights w = new Weights(r.weight("PriorityWeightAge"), r.weight("PriorityWeightAssoc"),
        r.weight("PriorityWeightFairshare"), r.weight("PriorityWeightJobSize"),
        r.weight("PriorityWeightPartition"), r.weight("PriorityWeightQOS"), r.tresWeights());
    String sched = r.word("SchedulerType", "SCHED/BACKFILL", "SCHED/BACKFILL", "SCHED/BUILTIN");
    return new SchedulingConfig(type.equals("PRIORITY/MULTIFACTOR"), w,
        r.minutes("PriorityMaxAge", 7 * 1440) * 60, r.bool("PriorityFavorSmall"), r.flags(),
        r.minutes("PriorityDecayHalfLife", 7 * 1440) * 60, r.minutes("PriorityCalcPeriod", 5) * 60,
        sched.equals("SCHED/BACKFILL"), r.backfill());
  }

  private record Reader(Function<String, ConfLine> lines) {
    ConfLine line(String key) {
      return lines.apply(key.toLowerCase(Locale.ROOT));
    }

    String word(String key, String dflt, String... allowed) throws ConfigException {
      ConfLine l = line(key);
      return l == null ? dflt : ConfValues.oneOf(l, key, l.firstValue(), allowed);
    }

    long weight(String key) throws ConfigException {
      ConfLine l = line(key);
      if (l == null) {
        return 0;
      }
      long v = ConfValues.longValue(l, key, l.firstValue(), 0);
      if (v > 0xFFFFFFFFL) {
        throw l.invalid(key, l.firstValue());
      }
      return v;
    }

    long minutes(String key, long dflt) throws ConfigException {
      ConfLine l = line(key);
      return l == null ? dflt : ConfValues.minutes(l, key, l.firstValue());
    }

    boolean bool(String key) throws ConfigException {
      ConfLine l = line(key);
      return l != null && ConfValues.bool(l, key, l.firstValue());
    }

    Set<String> flags() throws ConfigException {
      ConfLine l = line("PriorityFlags");
      if (l == null || l.firstValue().isBlank()) {
        return Set.of();
      }
      Set<String> out = new LinkedHashSet<>();
      for (String f : l.firstValue().split(",")) {
        String up = f.trim().toUpperCase(Locale.ROOT);
        if (!KNOWN_FLAGS.contains(up)) {
          throw l.error("PriorityFlags", "invalid value for PriorityFlags: unknown flag " + f.trim());
        }
        out.add(up);
      }
      if (out.contains("DEPTH_OBLIVIOUS")) {
        out.add("NO_FAIR_TREE"); // documented: DEPTH_OBLIVIOUS implies NO_FAIR_TREE
      }
      return Collections.unmodifiableSet(out);
    }

    /** PriorityWeightTRES=CPU=1000,Mem=2000,GRES/gpu=3000: names lower-cased as TRES are. */
    Map<String, Double> tresWeights() throws ConfigException {
      ConfLine l = line("PriorityWeightTRES");
      Map<String, Double> out = new LinkedHashMap<>();
      if (l == null || l.firstValue().isBlank()) {
        return out;
      }
      for (String item : l.firstValue().split(",")) {
        int eq = item.indexOf('=');
        if (eq <= 0) {
          throw l.error("PriorityWeightTRES", "invalid value for PriorityWeightTRES: " + item
              + " is not TYPE=WEIGHT");
        }
        String name = item.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        try {
          double v = Double.parseDouble(item.substring(eq + 1).trim());
          if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            throw new NumberFormatException();
          }
          out.put(name, v);
        } catch (NumberFormatException e) {
          throw l.error("PriorityWeightTRES", "invalid value for PriorityWeightTRES: bad weight in " + item);
        }
      }
      return out;
    }

    Backfill backfill() throws ConfigException {
      ConfLine l = line("SchedulerParameters");
      Backfill d = Backfill.DEFAULTS;
      if (l == null) {
        return d;
      }
      Map<String, String> p = new LinkedHashMap<>();
      for (String item : l.firstValue().split(",")) {
        int eq = item.indexOf('=');
        if (eq > 0) {
          p.put(item.substring(0, eq).trim().toLowerCase(Locale.ROOT), item.substring(eq + 1).trim());
        } else {
          p.put(item.trim().toLowerCase(Locale.ROOT), "");
        }
      }
      return new Backfill(
          param(l, p, "bf_interval", d.intervalS(), 1, 10800),
          param(l, p, "bf_max_job_test", d.maxJobTest(), 1, 1_000_000),
          param(l, p, "bf_resolution", d.resolutionS(), 1, 3600),
          param(l, p, "bf_window", d.windowMin(), 1, 43200),
          param(l, p, "bf_max_job_user", d.maxJobUser(), 0, 1_000_000),
          param(l, p, "default_queue_depth", d.queueDepth(), 1, Integer.MAX_VALUE),
          p.containsKey("kill_invalid_depend"));
    }

    private static int param(ConfLine l, Map<String, String> p, String name, int dflt, int min, int max)
        throws ConfigException {
      String v = p.get(name);
      if (v == null) {
        return dflt;
      }
      try {
        int n = Integer.parseInt(v);
        if (n < min || n > max) {
          throw new NumberFormatException();
        }
        return n;
      } catch (NumberFormatException e) {
        throw l.error("SchedulerParameters", "invalid value for SchedulerParameters: " + name + "=" + v
            + " (allowed " + min + "-" + max + ")");
      }
    }
  }
}

package org.corral.ctld.sched.limits;

import java.util.HashMap;
import java.util.Map;

/**
 * The decayed usage the time limits count (GrpTRESMins, GrpWall): TRES-seconds (cpu, mem in
 * MB, node, billing, gres/NAME...) and wall-seconds of the jobs that ran under each account,
 * user and partition and under each QOS, as the priority pass tracks them (decayed by
 * PriorityDecayHalfLife, as Slurm decays them). Immutable.
 */
public record TimeUsage(Map<Owner, Used> byAssoc, Map<String, Used> byQos) {
  public static final TimeUsage NONE = new TimeUsage(Map.of(), Map.of());

  /** What a job ran under. */
  public record Owner(String account, String user, String partition) {}

  /** TRES-seconds by TRES name, and wall-seconds. */
  public record Used(Map<String, Double> tresSecs, double wallSecs) {
    public static final Used ZERO = new Used(Map.of(), 0);

    public Used {
      tresSecs = Map.copyOf(tresSecs);
    }

    /** CPU-seconds only (and wall-seconds). */
    public Used(double cpuSecs, double wallSecs) {
      this(Map.of("cpu", cpuSecs), wallSecs);
    }

    /** {@code secs} seconds of a job holding these TRES counts. */
    public static Used of(Map<String, Long> tres, double secs) {
      Map<String, Double> m = new HashMap<>();
      tres.forEach((k, v) -> m.put(k, v * secs));
      return new Used(m, secs);
    }

    public double cpuSecs() {
      return secs("cpu");
    }

    public double secs(String tres) {
      return tresSecs.getOrDefault(tres, 0.0);
    }

    public Used plus(Used o) {
      Map<String, Double> m = new HashMap<>(tresSecs);
      o.tresSecs.forEach((k, v) -> m.merge(k, v, Double::sum));
      return new Used(m, wallSecs + o.wallSecs);
    }

    public Used times(double f) {
      Map<String, Double> m = new HashMap<>();
      tresSecs.forEach((k, v) -> m.put(k, v * f));
      return new Used(m, wallSecs * f);
    }
  }
}

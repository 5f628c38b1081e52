package org.corral.ctld.sched.limits;

import java.util.Map;

/**
 * The decayed usage the time limits count (GrpTRESMins, GrpWall): CPU-seconds and wall-seconds
 * of the jobs that ran under each account, user and partition and under each QOS, as the
 * priority pass tracks them (decayed by PriorityDecayHalfLife, as Slurm decays them). Immutable.
 */
public record TimeUsage(Map<Owner, Used> byAssoc, Map<String, Used> byQos) {
  public static final TimeUsage NONE = new TimeUsage(Map.of(), Map.of());

  /** What a job ran under. */
  public record Owner(String account, String user, String partition) {}

  /** CPU-seconds and wall-seconds. */
  public record Used(double cpuSecs, double wallSecs) {
    public static final Used ZERO = new Used(0, 0);

    public Used plus(Used o) {
      return new Used(cpuSecs + o.cpuSecs, wallSecs + o.wallSecs);
    }

    public Used times(double f) {
      return new Used(cpuSecs * f, wallSecs * f);
    }
  }
}

package org.corral.common.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * slurm.conf's preemption settings (preempt.html): PreemptType, the cluster-wide PreemptMode and
 * PreemptExemptTime. Partitions carry their own PreemptMode and GraceTime, QOS theirs.
 *
 * @param type preempt/none, preempt/partition_prio or preempt/qos
 * @param mode the cluster's PreemptMode, upper case ("SUSPEND,GANG", "REQUEUE", "OFF")
 * @param exemptTimeS PreemptExemptTime: jobs run at least this long before they may be preempted
 */
public record PreemptConfig(String type, String mode, long exemptTimeS) {
  public static final String NONE_TYPE = "preempt/none";
  public static final PreemptConfig NONE = new PreemptConfig(NONE_TYPE, "OFF", 0);

  public boolean enabled() {
    return !type.equals(NONE_TYPE);
  }

  public boolean byQos() {
    return type.equals("preempt/qos");
  }

  /** PreemptMode GANG (alone or as in SUSPEND,GANG): jobs sharing CPUs take turns. */
  public boolean gang() {
    return List.of(mode.split(",")).contains("GANG");
  }

  /** SchedulerTimeSlice, in seconds: 30 unless set, and between 5 and 65533 as Slurm requires. */
  public static long timeSliceS(SlurmConfig cfg) throws ConfigException {
    Optional<String> v = cfg.get("SchedulerTimeSlice");
    if (v.isEmpty()) {
      return 30;
    }
    try {
      long s = Long.parseLong(v.get().trim());
      if (s >= 5 && s <= 65533) {
        return s;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new ConfigException(cfg.path(), 0, "SchedulerTimeSlice",
        "invalid value for SchedulerTimeSlice: '" + v.get() + "' (must be between 5 and 65533 seconds)");
  }

  /**
   * What a PreemptMode does to a preempted job: CANCEL, REQUEUE, SUSPEND, or OFF (OFF, and GANG
   * alone, preempt nothing).
   */
  public static String action(String mode) {
    for (String w : mode.toUpperCase(Locale.ROOT).split(",")) {
      if (w.equals("CANCEL") || w.equals("REQUEUE") || w.equals("SUSPEND")) {
        return w;
      }
    }
    return "OFF";
  }

  /** Reads the three keys; an unknown PreemptType is refused as Slurm refuses it. */
  public static PreemptConfig of(SlurmConfig cfg) throws ConfigException {
    String type = cfg.get("PreemptType").map(t -> t.trim().toLowerCase(Locale.ROOT)).orElse(NONE_TYPE);
    if (!type.equals(NONE_TYPE) && !type.equals("preempt/partition_prio") && !type.equals("preempt/qos")) {
      throw new ConfigException(cfg.path(), 0, "PreemptType", "invalid value for PreemptType: '" + cfg.get("PreemptType").get() + "'");
    }
    String mode = cfg.get("PreemptMode").map(m -> m.trim().toUpperCase(Locale.ROOT)).orElse("OFF");
    Optional<String> exempt = cfg.get("PreemptExemptTime");
    long exemptS = 0;
    if (exempt.isPresent() && !exempt.get().trim().equals("-1")) {
      try {
        exemptS = org.corral.common.SlurmDuration.parseMinutes(exempt.get()) * 60;
      } catch (IllegalArgumentException e) {
        throw new ConfigException(cfg.path(), 0, "PreemptExemptTime", "invalid value for PreemptExemptTime: '" + exempt.get() + "'");
      }
    }
    return new PreemptConfig(type, mode, exemptS);
  }
}

package org.corral.common.config;

import java.util.List;
import java.util.Locale;

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
    long s = cfg.require(SlurmConfKeys.SCHEDULER_TIME_SLICE);
    if (s < 5 || s > 65533) {
      throw new ConfigException(cfg.path(), 0, "SchedulerTimeSlice", "invalid value for SchedulerTimeSlice: '" + s
          + "' (must be between 5 and 65533 seconds)");
    }
    return s;
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
    String type = cfg.require(SlurmConfKeys.PREEMPT_TYPE).toLowerCase(Locale.ROOT);
    String mode = cfg.value(SlurmConfKeys.PREEMPT_MODE).toUpperCase(Locale.ROOT);
    long exemptS = cfg.require(SlurmConfKeys.PREEMPT_EXEMPT_TIME) * 60;
    return new PreemptConfig(type, mode, exemptS);
  }
}

package org.corral.ctld.sched;

import java.util.LinkedHashMap;
import java.util.Map;
import org.corral.common.Licenses;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;

/**
 * The cluster's licenses (slurm.conf Licenses=) during one planning pass: what running jobs
 * hold, and whether a pending job's -L request fits in what is left. A job that does not fit
 * waits with Slurm's reason {@code Licenses}; licenses are not reserved ahead for later starts.
 */
public final class LicenseCheck {
  private final Map<String, Integer> totals;
  private final ClusterState state;
  /**
   * What is in use, counted on the first job that asks for a license: most passes have none, and
   * counting is a pass over every job the controller holds.
   */
  private Map<String, Integer> used;

  private LicenseCheck(Map<String, Integer> totals, ClusterState state) {
    this.totals = totals;
    this.state = state;
  }

  /** The totals, with what the jobs holding resources in {@code state} use taken. */
  public static LicenseCheck of(ClusterState state, Map<String, Integer> totals) {
    return new LicenseCheck(totals, state);
  }

  private Map<String, Integer> used() {
    if (used == null) {
      used = inUse(state);
    }
    return used;
  }

  /** Licenses held by running (and completing) jobs, by name. */
  public static Map<String, Integer> inUse(ClusterState state) {
    Map<String, Integer> used = new LinkedHashMap<>();
    for (JobRecord r : state.jobs().values()) {
      JobInfo j = r.getInfo();
      if (!j.getLicenses().isEmpty() && JobStates.holdsResources(j)) {
        asked(j).forEach((name, n) -> used.merge(name, n, Integer::sum));
      }
    }
    return used;
  }

  /** Whether every license the job asks for is free now. */
  boolean fits(JobInfo j) {
    if (j.getLicenses().isEmpty()) {
      return true;
    }
    Map<String, Integer> used = used();
    for (Map.Entry<String, Integer> e : asked(j).entrySet()) {
      int free = totals.getOrDefault(e.getKey(), 0) - used.getOrDefault(e.getKey(), 0);
      if (e.getValue() > free) {
        return false;
      }
    }
    return true;
  }

  /** The job started in this pass: its licenses are in use from now on. */
  void started(JobInfo j) {
    if (!j.getLicenses().isEmpty()) {
      Map<String, Integer> used = used();
      asked(j).forEach((name, n) -> used.merge(name, n, Integer::sum));
    }
  }

  /** A job's request; one the controller accepted always parses (checked at submission). */
  private static Map<String, Integer> asked(JobInfo j) {
    try {
      return Licenses.parse(j.getLicenses());
    } catch (IllegalArgumentException e) {
      return Map.of();
    }
  }
}

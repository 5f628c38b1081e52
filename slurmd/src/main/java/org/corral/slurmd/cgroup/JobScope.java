package org.corral.slurmd.cgroup;

import java.io.IOException;
import java.util.List;

/** One job's confinement on this node: the parent of its steps' scopes; holds the limits. */
public interface JobScope {
  int jobId();

  /** Opens (creating it if needed) the scope of step {@code stepId} ("batch", "extern", "0", ...). */
  StepScope openStep(String stepId) throws IOException;

  /** The steps that have a scope now. */
  List<String> steps();

  /** OOM kills seen in the job or any of its steps since the scope was created. */
  long oomKills();

  /** The host CPUs the job may run on (empty when cores are not constrained). */
  java.util.BitSet cpus();

  /**
   * ConstrainDevices: denies the job's processes these devices ("c 195:1": type, major:minor).
   * Throws where the backend cannot (cgroup v2 needs a BPF program Corral does not load).
   */
  default void denyDevices(List<String> devices) throws IOException {
    if (!devices.isEmpty()) {
      throw new IOException("this cgroup backend cannot constrain devices");
    }
  }

  /** The memory limit set, in bytes (0 = none). */
  long memoryLimitBytes();

  /**
   * Ends the scope: kills every process still in it (SIGKILL, waiting briefly for them to go),
   * then removes its directories (the user's level stays until {@link ResourceLimiter#shutdown()}).
   * Safe to call more than once. Takes milliseconds: the kernel frees memory cgroups slowly.
   */
  void remove();
}

package org.corral.slurmd.cgroup;

/**
 * A scope's counters as the kernel keeps them. A value the backend cannot read is -1 (CPU and
 * memory) or 0 (OOM kills).
 */
public record CgroupUsage(long userCpuMillis, long systemCpuMillis, long memoryPeakBytes, long oomKills) {
  public static final CgroupUsage UNKNOWN = new CgroupUsage(-1, -1, -1, 0);

  public boolean hasCpu() {
    return userCpuMillis >= 0 && systemCpuMillis >= 0;
  }
}

package org.corral.slurmd.cgroup;

import org.corral.common.config.CgroupConf;

/**
 * The memory limits cgroup.conf(5) derives from a job's allocation: RAM = AllowedRAMSpace % of
 * the allocated memory, raised to MinRAMSpace and capped at MaxRAMPercent % of the node's
 * memory; RAM+swap = RAM plus AllowedSwapSpace % of the allocation, capped at MaxSwapPercent %
 * of the node's memory and never below the RAM limit. 0 = no limit.
 *
 * @param ramBytes the RAM limit (0 unless ConstrainRAMSpace or ConstrainSwapSpace)
 * @param ramAndSwapBytes the RAM+swap limit (0 unless ConstrainSwapSpace)
 */
public record MemoryLimits(long ramBytes, long ramAndSwapBytes) {
  private static final long MB = 1024L * 1024;

  public static final MemoryLimits NONE = new MemoryLimits(0, 0);

  /**
   * @param allocatedBytes the job's memory on this node; 0 when it asked for none, which Slurm
   *     treats as the whole node
   * @param nodeMemoryBytes the node's RealMemory
   */
  public static MemoryLimits of(CgroupConf conf, long allocatedBytes, long nodeMemoryBytes) {
    if (!conf.constrainRAMSpace() && !conf.constrainSwapSpace()) {
      return NONE;
    }
    long allocated = allocatedBytes > 0 ? allocatedBytes : nodeMemoryBytes;
    long floor = conf.minRAMSpaceMb() * MB;
    long ram = Math.max(percent(allocated, conf.allowedRAMSpace()), floor);
    if (nodeMemoryBytes > 0) {
      ram = Math.min(ram, percent(nodeMemoryBytes, conf.maxRAMPercent()));
    }
    if (!conf.constrainSwapSpace()) {
      return new MemoryLimits(ram, 0);
    }
    long both = Math.max(ram + percent(allocated, conf.allowedSwapSpace()), floor);
    if (nodeMemoryBytes > 0) {
      both = Math.min(both, percent(nodeMemoryBytes, conf.maxSwapPercent()));
    }
    both = Math.max(both, ram);
    // Without ConstrainRAMSpace only the sum is limited; cgroup v1 wants RAM <= RAM+swap.
    return new MemoryLimits(conf.constrainRAMSpace() ? ram : both, both);
  }

  public boolean limitsRam() {
    return ramBytes > 0;
  }

  public boolean limitsSwap() {
    return ramAndSwapBytes > 0;
  }

  private static long percent(long bytes, double percent) {
    return (long) Math.floor(bytes * (percent / 100.0));
  }
}

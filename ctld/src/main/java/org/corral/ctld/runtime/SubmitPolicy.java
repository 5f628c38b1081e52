package org.corral.ctld.runtime;

import java.util.regex.Pattern;
import org.corral.common.ArrayTasks;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Checks a submission and fills in what the user left to the site: the partition, the time
 * limit, memory defaults, requeue. The result is what gets journaled, so replay never depends
 * on a configuration that may have changed since.
 */
final class SubmitPolicy {
  private static final String DEP_TERM =
      "((after|afterany|afterok|afternotok|aftercorr)(:\\d+(_\\d+)?(\\+\\d+)?)+|singleton)";
  private static final Pattern DEPENDENCY = Pattern.compile(DEP_TERM + "([,?]" + DEP_TERM + ")*",
      Pattern.CASE_INSENSITIVE);

  private final SlurmConfig config;

  /** MaxArraySize: array task ids run from 0 to one less than this (Slurm's default 1001). */
  private final int maxArraySize;

  SubmitPolicy(SlurmConfig config) {
    this.config = config;
    this.maxArraySize = Integer.parseInt(config.get("MaxArraySize").orElse("1001").trim());
  }

  JobSpec normalize(JobSpec spec, ClusterState s) {
    if (spec.getInteractive() && !spec.getScript().isEmpty()) {
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "an allocation (srun, salloc) carries no batch script");
    }
    if (!spec.getInteractive() && spec.getScript().isBlank()) {
      throw new SlurmException(SlurmError.JOB_SCRIPT_MISSING);
    }
    PartitionInfo p = partition(spec, s);
    JobSpec.Builder b = spec.toBuilder().setPartition(p.getName());
    if (!spec.hasTimeLimitMin()) {
      long def = Integer.toUnsignedLong(p.getDefaultTimeMin());
      b.setTimeLimitMin(def != SlurmDuration.INFINITE && def != 0 ? p.getDefaultTimeMin() : p.getMaxTimeMin());
    } else if (spec.getTimeLimitMin() == 0) {
      throw new SlurmException(SlurmError.INVALID_TIME_LIMIT);
    }
    if (!spec.hasMemPerNodeMb() && !spec.hasMemPerCpuMb()) {
      if (p.getDefMemPerCpuMb() > 0) {
        b.setMemPerCpuMb(p.getDefMemPerCpuMb());
      } else if (p.getDefMemPerNodeMb() > 0) {
        b.setMemPerNodeMb(p.getDefMemPerNodeMb());
      } else if (config.defMemPerCpu().isPresent()) {
        b.setMemPerCpuMb(config.defMemPerCpu().getAsLong());
      } else if (config.defMemPerNode().isPresent()) {
        b.setMemPerNodeMb(config.defMemPerNode().getAsLong());
      }
    }
    if (!spec.hasRequeue()) {
      b.setRequeue(config.jobRequeue());
    }
    if (spec.getName().isEmpty()) {
      b.setName("sbatch");
    }
    if (spec.getWorkDir().isEmpty()) {
      b.setWorkDir("/tmp");
    }
    if (!spec.getArray().isEmpty()) {
      if (spec.getInteractive()) {
        throw new SlurmException(SlurmError.INVALID_ARRAY);
      }
      try {
        b.setArray(ArrayTasks.parse(spec.getArray(), maxArraySize).toString());
      } catch (IllegalArgumentException e) {
        throw new SlurmException(SlurmError.INVALID_ARRAY);
      }
    }
    JobSpec out = b.build();
    checkDependency(out.getDependency());
    checkMemory(spec, p, s);
    return out;
  }

  private PartitionInfo partition(JobSpec spec, ClusterState s) {
    if (spec.getPartition().isEmpty()) {
      return s.defaultPartition()
          .orElseThrow(() -> new SlurmException(SlurmError.DEFAULT_PARTITION_NOT_SET));
    }
    // Slurm accepts a list and takes the first partition that works; a single name for now.
    String name = spec.getPartition().split(",")[0];
    return s.partition(name).orElseThrow(() -> new SlurmException(SlurmError.INVALID_PARTITION_NAME,
        "invalid partition specified: " + name));
  }

  /**
   * The syntax only: like Slurm 22.05, a dependency on a job no longer (or never) known is taken
   * as satisfied.
   */
  private static void checkDependency(String dep) {
    if (!dep.isBlank() && !DEPENDENCY.matcher(dep.trim()).matches()) {
      throw new SlurmException(SlurmError.INVALID_DEPENDENCY);
    }
  }

  /**
   * Refuses a --mem no node of the partition has, as Slurm does at submit time. Too many nodes
   * or CPUs are accepted and wait (PartitionNodeLimit, PartitionConfig), as in Slurm.
   */
  private static void checkMemory(JobSpec asked, PartitionInfo p, ClusterState s) {
    if (!asked.hasMemPerNodeMb()) {
      return;
    }
    long mem = asked.getMemPerNodeMb();
    boolean fits = p.getNodeNamesList().stream().map(s::node)
        .anyMatch(n -> n.isPresent() && n.get().getRealMemoryMb() >= mem);
    if (!fits) {
      throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE,
          "Memory specification can not be satisfied");
    }
  }
}

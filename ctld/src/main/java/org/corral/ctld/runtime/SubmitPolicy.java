package org.corral.ctld.runtime;

import java.util.regex.Pattern;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Checks a submission and fills in what the user left to the site: the partition, the time
 * limit, memory defaults, requeue. The result is what gets journaled, so replay never depends
 * on a configuration that may have changed since.
 */
final class SubmitPolicy {
  private static final Pattern DEPENDENCY =
      Pattern.compile("((after|afterany|afterok|afternotok):\\d+(\\+\\d+)?(:\\d+(\\+\\d+)?)*)([,?]((after|afterany|afterok|afternotok):\\d+(\\+\\d+)?(:\\d+(\\+\\d+)?)*))*");

  private final SlurmConfig config;

  SubmitPolicy(SlurmConfig config) {
    this.config = config;
  }

  JobSpec normalize(JobSpec spec, ClusterState s) {
    if (spec.getScript().isBlank()) {
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
    JobSpec out = b.build();
    checkDependency(out.getDependency(), s);
    checkFits(out, p, s);
    return out;
  }

  private PartitionInfo partition(JobSpec spec, ClusterState s) {
    if (spec.getPartition().isEmpty()) {
      return s.defaultPartition()
          .orElseThrow(() -> new SlurmException(SlurmError.DEFAULT_PARTITION_NOT_SET));
    }
    // Slurm accepts a list and takes the first partition that works; a single name for now.
    String name = spec.getPartition().split(",")[0];
    return s.partition(name).orElseThrow(() -> new SlurmException(SlurmError.INVALID_PARTITION_NAME));
  }

  private static void checkDependency(String dep, ClusterState s) {
    if (dep.isBlank()) {
      return;
    }
    if (!DEPENDENCY.matcher(dep.trim()).matches()) {
      throw new SlurmException(SlurmError.INVALID_DEPENDENCY);
    }
    for (String id : dep.split("[^0-9]+")) {
      if (!id.isEmpty() && s.job(Integer.parseInt(id)).isEmpty()) {
        throw new SlurmException(SlurmError.INVALID_DEPENDENCY);
      }
    }
  }

  /** Refuses requests no node configuration of the partition could ever satisfy. */
  private static void checkFits(JobSpec spec, PartitionInfo p, ClusterState s) {
    int nodes = spec.hasMinNodes() ? Math.max(1, spec.getMinNodes()) : 1;
    int cpt = spec.hasCpusPerTask() ? Math.max(1, spec.getCpusPerTask()) : 1;
    int tasks = spec.hasNumTasks() ? Math.max(1, spec.getNumTasks()) : 1;
    int perNode = spec.hasNtasksPerNode() ? spec.getNtasksPerNode() * cpt
        : ((tasks + nodes - 1) / nodes) * cpt;
    if (tasks < nodes && spec.hasNumTasks()) {
      throw new SlurmException(SlurmError.INVALID_NODE_COUNT);
    }
    int fitting = 0;
    for (String name : p.getNodeNamesList()) {
      NodeInfo n = s.node(name).orElse(null);
      if (n == null) {
        continue;
      }
      long mem = spec.hasMemPerNodeMb() ? spec.getMemPerNodeMb()
          : spec.hasMemPerCpuMb() ? spec.getMemPerCpuMb() * perNode : 0;
      if (n.getCpus() >= perNode && n.getRealMemoryMb() >= mem) {
        fitting++;
      }
    }
    if (fitting < nodes) {
      throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
    }
  }
}

package org.corral.cli.salloc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.ResourceOptions;
import org.corral.common.PerNodeCounts;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;

/** The variables salloc gives its command: the allocation's, as Slurm 22.05's salloc sets them. */
final class AllocationEnvironment {

  private AllocationEnvironment() {}

  static Map<String, String> of(JobInfo job, ResourceOptions r, ClusterFacts cluster, String submitDir,
      String submitHost) {
    List<Integer> cpus = new ArrayList<>();
    for (NodeAllocation a : job.getAllocationList()) {
      cpus.add(a.getCpus());
    }
    Map<String, String> v = new LinkedHashMap<>();
    if (!cluster.clusterName().isEmpty()) {
      v.put("SLURM_CLUSTER_NAME", cluster.clusterName());
    }
    v.put("SLURM_CONF", cluster.confPath().toString());
    String id = Integer.toUnsignedString(job.getJobId());
    v.put("SLURM_JOB_ID", id);
    v.put("SLURM_JOBID", id);
    v.put("SLURM_JOB_NAME", job.getName());
    v.put("SLURM_JOB_NODELIST", job.getNodes());
    v.put("SLURM_NODELIST", job.getNodes());
    v.put("SLURM_JOB_NUM_NODES", String.valueOf(job.getNumNodes()));
    v.put("SLURM_NNODES", String.valueOf(job.getNumNodes()));
    v.put("SLURM_JOB_CPUS_PER_NODE", PerNodeCounts.format(cpus));
    v.put("SLURM_JOB_PARTITION", job.getPartition());
    v.put("SLURM_NODE_ALIASES", "(null)");
    v.put("SLURM_SUBMIT_DIR", submitDir);
    v.put("SLURM_SUBMIT_HOST", submitHost);
    v.put("SLURM_TASKS_PER_NODE", PerNodeCounts.format(tasksPerNode(cpus, r)));
    v.putAll(r.taskVariables());
    v.putAll(r.gres.variables());
    if (r.memMb != null) {
      v.put("SLURM_MEM_PER_NODE", String.valueOf(r.memMb));
    }
    if (r.memPerCpuMb != null) {
      v.put("SLURM_MEM_PER_CPU", String.valueOf(r.memPerCpuMb));
    }
    return v;
  }

  /**
   * --ntasks-per-node when given; with -n, block placement over what each node's CPUs hold;
   * else one task per node (what Slurm 22.05's salloc shows).
   */
  static List<Integer> tasksPerNode(List<Integer> cpus, ResourceOptions r) {
    if (r.ntasksPerNode != null || r.ntasks == null) {
      return java.util.Collections.nCopies(cpus.size(), r.ntasksPerNode != null ? r.ntasksPerNode : 1);
    }
    return PerNodeCounts.placeTasks(r.ntasks, cpus, r.cpusPerTask == null ? 1 : r.cpusPerTask);
  }
}

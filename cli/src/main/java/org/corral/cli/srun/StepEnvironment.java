package org.corral.cli.srun;

import org.corral.common.TaskDistribution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.sbatch.ExportedEnvironment;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.ResourceOptions;
import org.corral.common.PerNodeCounts;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;

/**
 * The step-wide environment srun sends with its step: the user's variables after --export,
 * plus the SLURM_* variables srun can know before the step exists (the job's, srun's own
 * address, what was asked for). The variables that depend on the step's layout
 * (SLURM_STEP_ID, SLURM_STEP_NODELIST, SLURM_STEP_NUM_NODES, SLURM_STEP_NUM_TASKS,
 * SLURM_STEP_TASKS_PER_NODE, SLURM_TASKS_PER_NODE, SLURM_NNODES, SLURM_NODELIST, and
 * SLURM_NTASKS/SLURM_NPROCS when -n was not given) are the node daemon's to add.
 */
final class StepEnvironment {

  /** SRUN_DEBUG's value at the default verbosity (Slurm's "info" level). */
  private static final int DEFAULT_DEBUG_LEVEL = 3;

  private StepEnvironment() {}

  /**
   * @param job the allocation the step runs in
   * @param jobName SLURM_JOB_NAME: -J when given, else the job's name
   * @param ioHost srun's address for the nodes
   * @param ioPort srun's I/O listener
   * @param process SLURM_UMASK, SLURM_PRIO_PROCESS (what describes srun's process)
   */
  static List<String> build(SrunOptions o, Map<String, String> userEnv, JobInfo job, String jobName,
      ClusterFacts cluster, String submitDir, String submitHost, String ioHost, int ioPort,
      Map<String, String> process) {
    ResourceOptions r = o.resources;
    Map<String, String> v = new LinkedHashMap<>();
    String jobId = Integer.toUnsignedString(job.getJobId());
    v.put("SLURM_JOB_ID", jobId);
    v.put("SLURM_JOBID", jobId);
    v.put("SLURM_JOB_NAME", jobName);
    v.put("SLURM_JOB_NODELIST", job.getNodes());
    v.put("SLURM_JOB_NUM_NODES", String.valueOf(job.getNumNodes()));
    v.put("SLURM_JOB_CPUS_PER_NODE", cpusPerNode(job));
    v.put("SLURM_JOB_PARTITION", job.getPartition());
    v.putAll(r.taskVariables());
    if (userEnv.containsKey("SLURM_JOB_ID") || userEnv.containsKey("SLURM_JOBID")) {
      // Inside an allocation srun names the distribution it chose and the allocation's pack group.
      v.put("SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0", cpusPerNode(job));
      v.put("SLURM_DISTRIBUTION", distribution(v, userEnv, job));
    }
    if (r.distribution != null) {
      v.put("SLURM_DISTRIBUTION", TaskDistribution.shown(r.distribution));
      int plane = TaskDistribution.planeSizeOf(r.distribution);
      if (plane > 0) {
        v.put("SLURM_DIST_PLANESIZE", String.valueOf(plane));
      }
    }
    if (!o.cpuBind.isEmpty()) {
      v.put("SLURM_CPU_BIND", "quiet," + o.cpuBind);
      v.put("SLURM_CPU_BIND_LIST", o.cpuBind.equals("none") ? "" : o.cpuBind);
      v.put("SLURM_CPU_BIND_TYPE", o.cpuBind);
      v.put("SLURM_CPU_BIND_VERBOSE", "quiet");
    }
    if (MpiType.PMI2.equals(o.mpi)) {
      v.put("SLURM_MPI_TYPE", "pmi2");
    }
    if (o.label) {
      v.put("SLURM_LABELIO", "1");
    }
    v.putAll(process);
    v.put("SLURM_SUBMIT_DIR", submitDir);
    v.put("SLURM_SUBMIT_HOST", submitHost);
    v.put("SLURM_SRUN_COMM_HOST", ioHost);
    v.put("SLURM_SRUN_COMM_PORT", String.valueOf(ioPort));
    v.put("SLURM_STEP_LAUNCHER_PORT", String.valueOf(ioPort));
    v.put("SLURM_LAUNCH_NODE_IPADDR", ioHost);
    if (!cluster.clusterName().isEmpty()) {
      v.put("SLURM_CLUSTER_NAME", cluster.clusterName());
      v.put("SLURM_WORKING_CLUSTER", cluster.workingCluster());
    }
    int level = r.quiet ? DEFAULT_DEBUG_LEVEL - 1 : DEFAULT_DEBUG_LEVEL + r.verbose;
    v.put("SRUN_DEBUG", String.valueOf(level));
    return ExportedEnvironment.forStep(o.export, userEnv, v);
  }

  /** Slurm's default: cyclic while there is at most one task per node, else block. */
  private static String distribution(Map<String, String> v, Map<String, String> userEnv, JobInfo job) {
    int nodes = count(v.getOrDefault("SLURM_NNODES", userEnv.get("SLURM_NNODES")), job.getNumNodes());
    int tasks = count(v.getOrDefault("SLURM_NTASKS", userEnv.get("SLURM_NTASKS")), nodes);
    return tasks <= nodes ? "cyclic" : "block";
  }

  private static int count(String text, int otherwise) {
    try {
      return text == null ? otherwise : Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /** SLURM_JOB_CPUS_PER_NODE from the job's allocation: "2,1", "8(x4)". */
  static String cpusPerNode(JobInfo job) {
    List<Integer> cpus = new ArrayList<>();
    for (NodeAllocation a : job.getAllocationList()) {
      cpus.add(a.getCpus());
    }
    return PerNodeCounts.format(cpus);
  }
}

package org.corral.slurmd.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.PerNodeCounts;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.NodeAllocation;

/**
 * The environment of a batch script: the one captured at submission plus the variables Slurm
 * 22.05 sets for a batch job (names and formats checked against a real batch job's `env`).
 * SLURM_TASK_PID is added by the job's shell, which alone knows the pid.
 */
final class BatchEnvironment {
  /** Consumed on the node (SLURM_UMASK) or set by the job's shell (SLURM_TASK_PID). */
  private static final Set<String> NOT_PASSED = Set.of("SLURM_UMASK", "SLURM_TASK_PID");
  /** The submitter's limits (sbatch's PropagateResourceLimits): for the node, never in the job's environment. */
  private static final String LIMITS = "SLURM_RLIMIT_";

  private BatchEnvironment() {}

  /** "NAME=value" entries; malformed submitted entries (no name, NUL) are dropped. */
  static List<String> of(LaunchBatchRequest request, String nodeName, String workDir) {
    JobInfo job = request.getJob();
    JobSpec spec = request.getSpec();
    Map<String, String> env = new LinkedHashMap<>();
    for (String entry : spec.getEnvironmentList()) {
      int eq = entry.indexOf('=');
      if (eq > 0 && entry.indexOf('\0') < 0 && !NOT_PASSED.contains(entry.substring(0, eq))
          && !entry.startsWith(LIMITS)) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    String id = Integer.toUnsignedString(job.getJobId());
    String nodes = job.getNodes().isEmpty() ? nodeName : job.getNodes();
    int nodeCount = Math.max(1, job.getNumNodes());
    List<Integer> cpusPerNode = cpusPerNode(request, nodeCount);

    env.put("ENVIRONMENT", "BATCH");
    env.put("HOSTNAME", nodeName);
    env.put("SLURMD_NODENAME", nodeName);
    if (!request.getClusterName().isEmpty()) {
      env.put("SLURM_CLUSTER_NAME", request.getClusterName());
    }
    env.put("SLURM_CPUS_ON_NODE", Integer.toString(cpusOnThisNode(request, nodeName, cpusPerNode)));
    int cpusPerTask = Math.max(1, job.getCpusPerTask() > 0 ? job.getCpusPerTask() : spec.getCpusPerTask());
    if (spec.hasCpusPerTask()) {
      env.put("SLURM_CPUS_PER_TASK", Integer.toString(cpusPerTask));
    }
    env.put("SLURM_GTIDS", "0");
    if (job.getArrayJobId() != 0) {
      arrayVariables(env, job, spec);
    }
    env.put("SLURM_JOBID", id);
    env.put("SLURM_JOB_ID", id);
    if (!job.getAccount().isEmpty()) {
      env.put("SLURM_JOB_ACCOUNT", job.getAccount());
    }
    env.put("SLURM_JOB_CPUS_PER_NODE", PerNodeCounts.format(cpusPerNode));
    if (!spec.getDependency().isEmpty()) { // as submitted, though satisfied by now
      env.put("SLURM_JOB_DEPENDENCY", spec.getDependency());
    }
    env.put("SLURM_JOB_GID", Integer.toUnsignedString(job.getGroupId()));
    env.put("SLURM_JOB_NAME", !job.getName().isEmpty() ? job.getName() : spec.getName());
    env.put("SLURM_JOB_NODELIST", nodes);
    env.put("SLURM_JOB_NUM_NODES", Integer.toString(nodeCount));
    env.put("SLURM_JOB_PARTITION", job.getPartition());
    if (!job.getQos().isEmpty()) {
      env.put("SLURM_JOB_QOS", job.getQos());
    }
    if (!job.getReservation().isEmpty()) {
      env.put("SLURM_JOB_RESERVATION", job.getReservation());
    }
    env.put("SLURM_JOB_UID", Integer.toUnsignedString(job.getUserId()));
    env.put("SLURM_JOB_USER", job.getUserName());
    env.put("SLURM_LOCALID", "0");
    if (job.getMemPerCpuMb() > 0) {
      env.put("SLURM_MEM_PER_CPU", Long.toUnsignedString(job.getMemPerCpuMb()));
    } else if (job.getMemPerNodeMb() > 0) {
      env.put("SLURM_MEM_PER_NODE", Long.toUnsignedString(job.getMemPerNodeMb()));
    }
    env.put("SLURM_NNODES", Integer.toString(nodeCount));
    env.put("SLURM_NODEID", "0");
    env.put("SLURM_NODELIST", nodes);
    env.put("SLURM_NODE_ALIASES", "(null)");
    int tasks = nodeCount;
    if (spec.hasNumTasks()) {
      tasks = Math.max(1, job.getNumTasks() > 0 ? job.getNumTasks() : spec.getNumTasks());
      env.put("SLURM_NPROCS", Integer.toString(tasks));
      env.put("SLURM_NTASKS", Integer.toString(tasks));
    }
    if (spec.hasNtasksPerNode() && spec.getNtasksPerNode() > 0) {
      env.put("SLURM_NTASKS_PER_NODE", Integer.toString(spec.getNtasksPerNode()));
    }
    if (spec.getOvercommit()) {
      env.put("SLURM_OVERCOMMIT", "1");
    }
    if (!spec.getDistribution().isEmpty()) {
      env.put("SLURM_DISTRIBUTION", org.corral.common.TaskDistribution.shown(spec.getDistribution()));
      int plane = org.corral.common.TaskDistribution.planeSizeOf(spec.getDistribution());
      if (plane > 0) {
        env.put("SLURM_DIST_PLANESIZE", Integer.toString(plane));
      }
    }
    env.put("SLURM_PROCID", "0");
    if (job.getRestartCount() > 0) {
      env.put("SLURM_RESTART_COUNT", Integer.toUnsignedString(job.getRestartCount()));
    }
    env.putIfAbsent("SLURM_SUBMIT_DIR", workDir);
    String submitHost = !job.getSubmitHost().isEmpty() ? job.getSubmitHost() : spec.getSubmitHost();
    if (!submitHost.isEmpty()) {
      env.put("SLURM_SUBMIT_HOST", submitHost);
    }
    env.put("SLURM_TASKS_PER_NODE", PerNodeCounts.format(tasksPerNode(spec, tasks, cpusPerNode, cpusPerTask)));
    env.put("SLURM_TOPOLOGY_ADDR", nodeName);
    env.put("SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    if (!spec.getExportEnv().isEmpty()) {
      env.putIfAbsent("SLURM_EXPORT_ENV", spec.getExportEnv());
    }
    env.putAll(org.corral.slurmd.gres.GresEnvironment.job(job, nodeName));
    List<String> entries = new ArrayList<>(env.size());
    env.forEach((name, value) -> entries.add(name + "=" + value));
    return entries;
  }

  /** Cpus allocated on each of the job's nodes, in node order. */
  private static List<Integer> cpusPerNode(LaunchBatchRequest request, int nodeCount) {
    List<NodeAllocation> allocation = request.getJob().getAllocationList();
    if (!allocation.isEmpty()) {
      return allocation.stream().map(a -> a.getCpus()).toList();
    }
    int cpus = request.getCpusOnNode() > 0 ? request.getCpusOnNode()
        : Math.max(1, request.getJob().getNumCpus() / nodeCount);
    return java.util.Collections.nCopies(nodeCount, cpus);
  }

  private static int cpusOnThisNode(LaunchBatchRequest request, String nodeName, List<Integer> cpusPerNode) {
    if (request.getCpusOnNode() > 0) {
      return request.getCpusOnNode();
    }
    return request.getJob().getAllocationList().stream()
        .filter(a -> a.getNode().equals(nodeName))
        .map(NodeAllocation::getCpus)
        .findFirst()
        .orElse(cpusPerNode.get(0));
  }

  private static List<Integer> tasksPerNode(JobSpec spec, int tasks, List<Integer> cpusPerNode, int cpusPerTask) {
    if (spec.hasNtasksPerNode() && spec.getNtasksPerNode() > 0) {
      return java.util.Collections.nCopies(cpusPerNode.size(), spec.getNtasksPerNode());
    }
    if (spec.getOvercommit()) { // the tasks share the CPUs: as evenly as the nodes allow, first ones first
      int nodes = cpusPerNode.size();
      List<Integer> even = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        even.add(tasks / nodes + (i < tasks % nodes ? 1 : 0));
      }
      return even;
    }
    return PerNodeCounts.placeTasks(tasks, cpusPerNode, cpusPerTask);
  }

  /**
   * SLURM_ARRAY_JOB_ID, _TASK_ID and, over the whole array as submitted, _TASK_COUNT, _MIN, _MAX
   * and _STEP (the spacing of evenly spaced ids, 1 otherwise), as Slurm sets them.
   */
  private static void arrayVariables(java.util.Map<String, String> env, org.corral.protocol.msg.JobInfo job,
      org.corral.protocol.msg.JobSpec spec) {
    env.put("SLURM_ARRAY_JOB_ID", Integer.toUnsignedString(job.getArrayJobId()));
    env.put("SLURM_ARRAY_TASK_ID", Integer.toUnsignedString(job.getArrayTaskId()));
    org.corral.common.ArrayTasks all = org.corral.common.ArrayTasks.fromString(spec.getArray());
    if (all.isEmpty()) {
      return;
    }
    env.put("SLURM_ARRAY_TASK_COUNT", Long.toString(all.count()));
    env.put("SLURM_ARRAY_TASK_MIN", Integer.toString(all.first()));
    env.put("SLURM_ARRAY_TASK_MAX", Integer.toString(all.last()));
    env.put("SLURM_ARRAY_TASK_STEP", Integer.toString(all.step()));
  }
}

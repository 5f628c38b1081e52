package org.corral.slurmd.step;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.NodeAllocation;

/**
 * The environment of a step's tasks on this node: srun's step-wide environment (StepSpec
 * environment) plus what Slurm 22.05's node side sets per node and per task, compared with
 * `srun -N2 -n3 -l env` and `srun --mpi=pmi2 env` on the reference. SLURM_TASK_PID is added by
 * the task's shell, which alone knows the pid.
 */
final class StepEnvironment {
  /** Set here per task (SLURM_TASK_PID by the task's shell), whatever srun passed. */
  private static final String TASK_PID = "SLURM_TASK_PID";

  private final Map<String, String> node;
  private final String nodeName;
  /** The step's GPUs here and how its tasks are bound to them (--gpu-bind); "" = not bound. */
  private final List<Integer> stepGpus;
  private final String gpuBind;
  private final boolean pmi2;
  private final int stepTasks;

  /**
   * @param nodeName this node's name (SLURMD_NODENAME, SLURM_TOPOLOGY_ADDR)
   * @param confPath the slurm.conf the tasks see as SLURM_CONF
   */
  StepEnvironment(LaunchTasksRequest request, String nodeName, String confPath) {
    JobInfo job = request.getJob();
    Map<String, String> env = new LinkedHashMap<>();
    for (String entry : request.getSpec().getEnvironmentList()) {
      int eq = entry.indexOf('=');
      if (eq > 0 && entry.indexOf('\0') < 0 && !entry.substring(0, eq).equals(TASK_PID)) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    String jobId = Integer.toUnsignedString(job.getJobId());
    String stepId = StepIds.name(request.getStep().getStepId());
    // srun normally passes these; a node never leaves a task without them.
    env.putIfAbsent("SLURM_JOB_ID", jobId);
    env.putIfAbsent("SLURM_JOBID", jobId);
    env.putIfAbsent("SLURM_STEP_ID", stepId);
    env.putIfAbsent("SLURM_STEPID", stepId);
    env.putIfAbsent("SLURM_JOB_UID", Integer.toUnsignedString(job.getUserId()));
    env.putIfAbsent("SLURM_JOB_GID", Integer.toUnsignedString(job.getGroupId()));
    if (!job.getUserName().isEmpty()) {
      env.putIfAbsent("SLURM_JOB_USER", job.getUserName());
    }
    if (!job.getName().isEmpty()) {
      env.putIfAbsent("SLURM_JOB_NAME", job.getName());
    }
    if (!job.getPartition().isEmpty()) {
      env.putIfAbsent("SLURM_JOB_PARTITION", job.getPartition());
    }
    if (!job.getNodes().isEmpty()) {
      env.putIfAbsent("SLURM_JOB_NODELIST", job.getNodes());
      env.putIfAbsent("SLURM_JOB_NUM_NODES", Integer.toString(job.getNumNodes()));
    }
    if (!request.getClusterName().isEmpty()) {
      env.putIfAbsent("SLURM_CLUSTER_NAME", request.getClusterName());
    }
    // Slurm's step daemon gives a task without TMPDIR its TmpFS (default /tmp; 22.05 does it for
    // some tasks only, a quirk not copied).
    env.putIfAbsent("TMPDIR", "/tmp");
    env.put("SLURMD_NODENAME", nodeName);
    env.put("SLURM_CONF", confPath);
    env.put("SLURM_CPUS_ON_NODE", Integer.toString(cpusOnNode(request, nodeName)));
    env.put("SLURM_GTIDS", request.getTaskIdsList().stream().map(Integer::toUnsignedString)
        .collect(Collectors.joining(",")));
    env.put("SLURM_NODEID", Integer.toUnsignedString(request.getNodeIndex()));
    env.put("SLURM_TOPOLOGY_ADDR", nodeName);
    env.put("SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    if (request.getStep().getGresCount() > 0) { // the step's GPUs replace what srun's environment said
      for (String v : List.of("CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES",
          "ZE_AFFINITY_MASK", "SLURM_GPUS_ON_NODE")) {
        env.remove(v);
      }
      env.putAll(org.corral.slurmd.gres.GresEnvironment.step(request.getStep().getGresList(), nodeName));
    }
    this.nodeName = nodeName;
    var here = org.corral.protocol.Gres.on(request.getStep().getGresList(), nodeName);
    this.stepGpus = here == null ? List.of() : org.corral.protocol.Gres.indices(here.getGresList(), "gpu");
    this.gpuBind = org.corral.slurmd.gres.GpuBinding.of(request.getSpec().getGpuBind(),
        request.getSpec().getTresPerTask());
    this.pmi2 = "pmi2".equals(request.getSpec().getMpi());
    this.stepTasks = request.getStep().getNumTasks() > 0 ? request.getStep().getNumTasks()
        : request.getTaskIdsCount();
    if (pmi2) {
      env.putIfAbsent("SLURM_MPI_TYPE", "pmi2");
      env.put("PMI_JOBID", jobId + "." + stepId);
      env.put("PMI_SIZE", Integer.toString(stepTasks));
    }
    this.node = env;
  }

  /** "NAME=value" entries of one task: {@code globalId} is SLURM_PROCID, {@code localId} its index here. */
  List<String> forTask(int globalId, int localId) {
    return forTask(globalId, localId, List.of());
  }

  /** As above; {@code nearGpus}: the node's GPUs near the task's CPUs, for --gpu-bind=closest. */
  List<String> forTask(int globalId, int localId, List<Integer> nearGpus) {
    Map<String, String> env = new LinkedHashMap<>(node);
    env.put("SLURM_LOCALID", Integer.toString(localId));
    env.put("SLURM_PROCID", Integer.toUnsignedString(globalId));
    if (!gpuBind.isEmpty() && !stepGpus.isEmpty()) { // the task's own GPUs, as Slurm's task plugin sets them
      env.putAll(org.corral.slurmd.gres.GresEnvironment.task(
          org.corral.slurmd.gres.GpuBinding.forTask(gpuBind, stepGpus, localId, nearGpus), nodeName));
    }
    if (pmi2) {
      env.put("PMI_RANK", Integer.toUnsignedString(globalId));
    }
    List<String> entries = new ArrayList<>(env.size());
    env.forEach((name, value) -> entries.add(name + "=" + value));
    return entries;
  }

  /** The job's CPUs here (its allocation on this node), as Slurm shows in SLURM_CPUS_ON_NODE. */
  static int cpusOnNode(LaunchTasksRequest request, String nodeName) {
    for (NodeAllocation a : request.getJob().getAllocationList()) {
      if (a.getNode().equals(nodeName)) {
        return a.getCpus();
      }
    }
    int index = request.getNodeIndex();
    var step = request.getStep();
    if (index < step.getCpusOnNodeCount() && step.getCpusOnNode(index) > 0) {
      return step.getCpusOnNode(index);
    }
    return Math.max(1, request.getTaskIdsCount() * Math.max(1, step.getCpusPerTask()));
  }
}

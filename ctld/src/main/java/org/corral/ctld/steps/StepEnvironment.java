package org.corral.ctld.steps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.PerNodeCounts;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.StepInfo;

/**
 * The step-wide variables only known once the controller has placed the step, laid over the
 * environment srun sent (a later value replaces an earlier one): the step's nodes, task counts
 * and id, and the ports reserved for it (MpiParams=ports). As in Slurm, SLURM_NODELIST keeps the job's nodes while SLURM_NNODES counts the
 * step's.
 */
public final class StepEnvironment {
  private StepEnvironment() {}

  public static List<String> withPlacement(List<String> environment, StepInfo step) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String entry : environment) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    String tasksPerNode = PerNodeCounts.format(step.getTasksOnNodeList().stream().map(Integer::valueOf).toList());
    String id = StepIds.name(step.getStepId());
    String nodes = Integer.toString(step.getNodeNamesCount());
    String tasks = Integer.toString(step.getNumTasks());
    env.put("SLURM_STEP_ID", id);
    env.put("SLURM_STEPID", id);
    env.put("SLURM_STEP_NODELIST", step.getNodes());
    env.put("SLURM_STEP_NUM_NODES", nodes);
    env.put("SLURM_STEP_NUM_TASKS", tasks);
    env.put("SLURM_STEP_TASKS_PER_NODE", tasksPerNode);
    env.put("SLURM_NNODES", nodes);
    env.put("SLURM_NTASKS", tasks);
    env.put("SLURM_NPROCS", tasks);
    env.put("SLURM_TASKS_PER_NODE", tasksPerNode);
    env.putIfAbsent("SLURM_NODELIST", step.getNodes());
    if (!step.getResvPorts().isEmpty()) {
      env.put("SLURM_STEP_RESV_PORTS", step.getResvPorts());
    }
    List<String> out = new ArrayList<>(env.size());
    env.forEach((k, v) -> out.add(k + "=" + v));
    return out;
  }
}

package org.corral.cli.submit;

import java.util.ArrayList;
import java.util.List;

/**
 * How many tasks an allocation holds on each of its nodes (salloc's SLURM_TASKS_PER_NODE):
 * --ntasks-per-node when given; else with -n, block distribution over what each node's CPUs
 * hold (one task per node first, then filling nodes in order); else one task per node.
 */
public final class AllocationTasks {

  private AllocationTasks() {}

  public static List<Integer> perNode(List<Integer> cpusOnNode, Integer ntasks, Integer cpusPerTask,
      Integer ntasksPerNode) {
    int nodes = cpusOnNode.size();
    List<Integer> tasks = new ArrayList<>();
    if (ntasksPerNode != null || ntasks == null) {
      for (int i = 0; i < nodes; i++) {
        tasks.add(ntasksPerNode != null ? ntasksPerNode : 1);
      }
      return tasks;
    }
    int cpt = cpusPerTask == null ? 1 : cpusPerTask;
    int left = ntasks;
    for (int i = 0; i < nodes; i++) {
      int first = left > 0 ? 1 : 0;
      tasks.add(first);
      left -= first;
    }
    for (int i = 0; i < nodes && left > 0; i++) {
      int room = Math.max(1, cpusOnNode.get(i) / cpt) - tasks.get(i);
      int more = Math.min(Math.max(0, room), left);
      tasks.set(i, tasks.get(i) + more);
      left -= more;
    }
    for (int i = 0; left > 0 && nodes > 0; i = (i + 1) % nodes) {
      tasks.set(i, tasks.get(i) + 1); // more tasks than CPUs (overcommit): round robin
      left--;
    }
    return tasks;
  }
}

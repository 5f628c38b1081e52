package org.corral.cli.srun;

import java.util.List;
import org.corral.protocol.StepTaskIds;
import org.corral.protocol.msg.StepInfo;

/**
 * Where a step's tasks run: its nodes in order and, per node, the global task ids there
 * (see {@link StepTaskIds}).
 */
record StepLayout(List<String> nodes, List<List<Integer>> tasksByNode, int numTasks) {

  static StepLayout of(StepInfo step) {
    List<List<Integer>> byNode = StepTaskIds.byNode(step);
    int total = Math.max(byNode.stream().mapToInt(List::size).sum(), step.getNumTasks());
    return new StepLayout(List.copyOf(step.getNodeNamesList()), byNode, total);
  }

  /** The index of the node running the task, or -1. */
  int nodeOf(int task) {
    for (int i = 0; i < tasksByNode.size(); i++) {
      if (tasksByNode.get(i).contains(task)) {
        return i;
      }
    }
    return -1;
  }
}

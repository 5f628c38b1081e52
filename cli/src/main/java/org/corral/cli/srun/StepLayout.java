package org.corral.cli.srun;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.StepInfo;

/**
 * Where a step's tasks run: its nodes in order and, per node, the global task ids there
 * (block numbering: node 0 has tasks 0..k-1, node 1 the next ones, ...).
 */
record StepLayout(List<String> nodes, List<List<Integer>> tasksByNode, int numTasks) {

  static StepLayout of(StepInfo step) {
    List<List<Integer>> byNode = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < step.getNodeNamesCount(); i++) {
      int count = i < step.getTasksOnNodeCount() ? step.getTasksOnNode(i) : 0;
      List<Integer> ids = new ArrayList<>(count);
      for (int k = 0; k < count; k++) {
        ids.add(next++);
      }
      byNode.add(List.copyOf(ids));
    }
    int total = Math.max(next, step.getNumTasks());
    return new StepLayout(List.copyOf(step.getNodeNamesList()), List.copyOf(byNode), total);
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

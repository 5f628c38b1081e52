package org.corral.protocol;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.StepInfo;

/**
 * The global task ids on each of a step's nodes: as the step lists them (-m cyclic, plane), or
 * block-numbered (node 0 has tasks 0..k-1, node 1 the next ones, ...) when it lists none.
 */
public final class StepTaskIds {

  private StepTaskIds() {}

  public static List<List<Integer>> byNode(StepInfo step) {
    List<List<Integer>> byNode = new ArrayList<>();
    boolean listed = step.getTaskIdsCount() > 0;
    int next = 0;
    for (int i = 0; i < step.getNodeNamesCount(); i++) {
      int count = i < step.getTasksOnNodeCount() ? step.getTasksOnNode(i) : 0;
      List<Integer> ids = new ArrayList<>(count);
      for (int k = 0; k < count; k++, next++) {
        ids.add(listed && next < step.getTaskIdsCount() ? step.getTaskIds(next) : next);
      }
      byNode.add(List.copyOf(ids));
    }
    return List.copyOf(byNode);
  }
}

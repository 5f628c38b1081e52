package org.corral.slurmd.pmi;

import java.util.ArrayList;
import java.util.List;

/**
 * PMI_process_mapping: which node each rank of a step runs on, in the "(vector,(node,count,ranks))"
 * form Slurm's mpi/pmi2 gives MPICH: each triple says that {@code count} nodes from {@code node}
 * on hold {@code ranks} consecutive ranks each; a list that repeats itself (-m cyclic) is given
 * once, as MPICH applies it again to the ranks that follow. On the reference, -N2 -n3 gives
 * "(vector,(0,1,2),(1,1,1))".
 */
public final class ProcessMapping {
  private ProcessMapping() {}

  /** @param tasksByNode per node of the step, in order, the global task ids there */
  public static String of(List<List<Integer>> tasksByNode) {
    int n = tasksByNode.stream().mapToInt(List::size).sum();
    int[] nodeOf = new int[n];
    for (int node = 0; node < tasksByNode.size(); node++) {
      for (int task : tasksByNode.get(node)) {
        if (task < 0 || task >= n) {
          throw new IllegalArgumentException("task id " + task + " outside 0.." + (n - 1));
        }
        nodeOf[task] = node;
      }
    }
    List<int[]> triples = new ArrayList<>();
    int rank = 0;
    while (rank < n) {
      int node = nodeOf[rank];
      int block = 1;
      while (rank + block < n && nodeOf[rank + block] == node) {
        block++;
      }
      int count = 1;
      int next = rank + block;
      while (isBlock(nodeOf, next, block, node + count)) {
        count++;
        next += block;
      }
      triples.add(new int[] {node, count, block});
      rank = next;
    }
    int period = period(triples, nodeOf);
    StringBuilder s = new StringBuilder("(vector");
    for (int[] t : triples.subList(0, period)) {
      s.append(",(").append(t[0]).append(',').append(t[1]).append(',').append(t[2]).append(')');
    }
    return s.append(')').toString();
  }

  /** Whether exactly {@code block} ranks from {@code from} on sit on {@code node}. */
  private static boolean isBlock(int[] nodeOf, int from, int block, int node) {
    if (from + block > nodeOf.length) {
      return false;
    }
    for (int i = from; i < from + block; i++) {
      if (nodeOf[i] != node) {
        return false;
      }
    }
    return from + block == nodeOf.length || nodeOf[from + block] != node;
  }

  /** The fewest leading triples that, applied again and again as MPICH does, give every rank its node. */
  private static int period(List<int[]> triples, int[] nodeOf) {
    for (int p = 1; p < triples.size(); p++) {
      if (repeatsTo(triples.subList(0, p), nodeOf)) {
        return p;
      }
    }
    return triples.size();
  }

  private static boolean repeatsTo(List<int[]> prefix, int[] nodeOf) {
    int rank = 0;
    while (rank < nodeOf.length) {
      for (int[] t : prefix) {
        for (int node = t[0]; node < t[0] + t[1]; node++) {
          for (int k = 0; k < t[2]; k++, rank++) {
            if (rank < nodeOf.length && nodeOf[rank] != node) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }
}

package org.corral.ctld.steps;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepSpec;

/**
 * Where a step's tasks go inside its job's allocation: which nodes, how many tasks and CPUs on
 * each. Pure. Tasks are spread as Slurm's block distribution does: as evenly as the nodes
 * allow, the first nodes taking one more, consecutive task ids sharing a node; a node that
 * cannot hold its share passes the rest on to the next ones with room.
 */
public final class StepLayout {

  /** A step's placement: parallel lists, in allocation order. */
  public record Placement(List<String> nodes, List<Integer> tasks, List<Integer> cpus, int cpusPerTask) {
    public int numTasks() {
      return tasks.stream().mapToInt(Integer::intValue).sum();
    }

    public int numCpus() {
      return cpus.stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** Why a step cannot be placed: now (busy: other steps hold the CPUs) or never. */
  public sealed interface Outcome {}

  public record Placed(Placement placement) implements Outcome {}

  /** Other steps hold CPUs it needs; srun waits and retries. */
  public record Busy() implements Outcome {}

  /** Can never fit this allocation, for Slurm's reason. */
  public record Impossible(SlurmError error) implements Outcome {}

  private StepLayout() {}

  /**
   * @param busyCpus CPUs that running (non-overlapping) steps hold on each node
   */
  public static Outcome place(JobInfo job, StepSpec spec, Map<String, Integer> busyCpus) {
    List<NodeAllocation> alloc = job.getAllocationList();
    List<NodeAllocation> candidates = new ArrayList<>(alloc);
    if (!spec.getNodeList().isEmpty()) {
      Set<String> wanted;
      try {
        wanted = new HashSet<>(Hostlist.expand(spec.getNodeList()));
      } catch (IllegalArgumentException e) {
        return new Impossible(SlurmError.INVALID_NODE_NAME);
      }
      candidates.removeIf(a -> !wanted.contains(a.getNode()));
      if (candidates.size() < wanted.size()) {
        return new Impossible(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
      }
    }
    int cpt = spec.hasCpusPerTask() ? Math.max(1, spec.getCpusPerTask()) : 1;
    int minNodes;
    if (spec.hasMinNodes()) {
      minNodes = Math.max(1, spec.getMinNodes());
    } else if (!spec.getNodeList().isEmpty()) {
      minNodes = candidates.size();
    } else {
      minNodes = spec.hasNumTasks() ? Math.min(candidates.size(), Math.max(1, spec.getNumTasks()))
          : candidates.size();
    }
    if (minNodes > candidates.size()) {
      return new Impossible(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
    }
    int tasks;
    if (spec.hasNumTasks()) {
      tasks = Math.max(1, spec.getNumTasks());
    } else if (spec.hasNtasksPerNode()) {
      tasks = spec.getNtasksPerNode() * minNodes;
    } else {
      tasks = minNodes;
    }
    if (tasks < minNodes) {
      minNodes = tasks;
    }
    // Never: more CPUs than the allocation has on the nodes it may use (-O: tasks share them).
    int totalCpus = candidates.stream().mapToInt(NodeAllocation::getCpus).sum();
    if (!spec.getOvercommit() && (long) tasks * cpt > totalCpus) {
      return new Impossible(SlurmError.TOO_MANY_REQUESTED_CPUS);
    }
    boolean shares = spec.getOverlap();
    Placement now = fit(candidates, minNodes, tasks, cpt, shares ? Map.of() : busyCpus, spec);
    if (now != null) {
      return new Placed(now);
    }
    if (fit(candidates, minNodes, tasks, cpt, Map.of(), spec) != null) {
      return new Busy();
    }
    return new Impossible(SlurmError.TOO_MANY_REQUESTED_CPUS);
  }

  /** Picks the first {@code nodes} candidates with room for a task and spreads the tasks. */
  private static Placement fit(List<NodeAllocation> candidates, int nodes, int tasks, int cpt,
      Map<String, Integer> busy, StepSpec spec) {
    List<String> names = new ArrayList<>();
    List<Integer> room = new ArrayList<>();
    List<Integer> freeCpus = new ArrayList<>();
    for (NodeAllocation a : candidates) {
      int free = a.getCpus() - busy.getOrDefault(a.getNode(), 0);
      int fits = free / cpt;
      if (spec.getOvercommit() && free >= 1) {
        fits = tasks; // -O: any number of tasks share the node's CPUs
      }
      if (fits >= 1 && names.size() < nodes) {
        names.add(a.getNode());
        room.add(fits);
        freeCpus.add(free);
      }
    }
    if (names.size() < nodes) {
      return null;
    }
    int[] share = new int[nodes];
    int perNode = spec.hasNtasksPerNode() && (long) spec.getNtasksPerNode() * nodes == tasks
        ? spec.getNtasksPerNode() : -1;
    int left = tasks;
    for (int i = 0; i < nodes; i++) {
      int want = perNode > 0 ? perNode : tasks / nodes + (i < tasks % nodes ? 1 : 0);
      share[i] = Math.min(want, room.get(i));
      left -= share[i];
    }
    for (int i = 0; i < nodes && left > 0; i++) {
      int more = Math.min(left, room.get(i) - share[i]);
      share[i] += more;
      left -= more;
    }
    if (left > 0) {
      return null;
    }
    List<Integer> taskList = new ArrayList<>();
    List<Integer> cpuList = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      taskList.add(share[i]);
      cpuList.add(spec.getOvercommit() ? Math.min(share[i] * cpt, freeCpus.get(i)) : share[i] * cpt);
    }
    return new Placement(List.copyOf(names), List.copyOf(taskList), List.copyOf(cpuList), cpt);
  }
}

package org.corral.ctld.steps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.common.gres.GresCount;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepRecord;
import org.corral.protocol.msg.StepSpec;

/**
 * The job's generic resources a step uses on each of its nodes: all of the job's there when
 * the step asks for none (as in Slurm), else the lowest indices of the job's that no other
 * running step asked for (--gres, --gpus-per-node, --gpus per node, --gpus-per-task per task).
 */
public final class StepGres {
  private StepGres() {}

  /** One entry (node, gres) per step node where it uses any; the job's order of nodes. */
  public static List<NodeAllocation> choose(JobRecord rec, StepSpec spec, List<String> nodes, List<Integer> tasks)
      throws StepUnavailable {
    List<NodeAllocation> out = new ArrayList<>();
    List<GresCount> perNode;
    List<GresCount> perTask;
    List<GresCount> perStep;
    try {
      perNode = GresCount.parseList(spec.getTresPerNode());
      perTask = GresCount.parseList(spec.getTresPerTask());
      perStep = GresCount.parseList(spec.getTresPerJob());
    } catch (IllegalArgumentException e) {
      throw new StepUnavailable(SlurmError.INVALID_GRES);
    }
    boolean asks = !perNode.isEmpty() || !perTask.isEmpty() || !perStep.isEmpty();
    for (int i = 0; i < nodes.size(); i++) {
      NodeAllocation job = Gres.on(rec.getInfo().getAllocationList(), nodes.get(i));
      List<GresAlloc> mine = job == null ? List.of() : job.getGresList();
      if (!asks) {
        if (!mine.isEmpty()) {
          out.add(NodeAllocation.newBuilder().setNode(nodes.get(i)).addAllGres(mine).build());
        }
        continue;
      }
      List<GresAlloc> busy = List.of();
      for (StepRecord s : rec.getStepsList()) {
        if (s.getInfo().getState() == JobState.RUNNING && (!s.getSpec().getTresPerNode().isEmpty()
            || !s.getSpec().getTresPerTask().isEmpty() || !s.getSpec().getTresPerJob().isEmpty())) {
          NodeAllocation held = Gres.on(s.getInfo().getGresList(), nodes.get(i));
          if (held != null) {
            busy = Gres.plus(busy, held.getGresList(), 1);
          }
        }
      }
      // Of one resource asked for several ways (--gpus-per-node=3 with --gpus-per-task=1), the most.
      Map<String, GresCount> need = new LinkedHashMap<>();
      perNode.forEach(c -> atLeast(need, c));
      int t = i < tasks.size() ? tasks.get(i) : 1;
      for (GresCount c : perTask) {
        atLeast(need, new GresCount(c.name(), c.type(), c.count() * Math.max(1, t)));
      }
      for (GresCount c : perStep) { // --gpus=N: as even as it goes, the first nodes one more
        long share = c.count() / nodes.size() + (i < c.count() % nodes.size() ? 1 : 0);
        if (share > 0) {
          atLeast(need, new GresCount(c.name(), c.type(), share));
        }
      }
      List<GresAlloc> taken = new ArrayList<>();
      for (GresCount c : need.values()) {
        List<Integer> have = new ArrayList<>();
        for (GresAlloc a : mine) {
          if (a.getName().equals(c.name()) && (c.type().isEmpty() || a.getType().equals(c.type()))) {
            have.addAll(a.getIndicesList());
          }
        }
        if (have.size() < c.count()) {
          throw new StepUnavailable(SlurmError.INSUFFICIENT_GRES);
        }
        List<Integer> used = Gres.indices(Gres.plus(busy, taken, 1), c.name());
        List<Integer> free = have.stream().sorted().filter(x -> !used.contains(x)).toList();
        if (free.size() < c.count()) {
          throw new StepUnavailable(SlurmError.NODES_BUSY);
        }
        for (int x : free.subList(0, (int) c.count())) {
          String type = mine.stream().filter(a -> a.getName().equals(c.name()) && a.getIndicesList().contains(x))
              .map(GresAlloc::getType).findFirst().orElse("");
          taken = Gres.plus(taken, List.of(GresAlloc.newBuilder().setName(c.name()).setType(type).addIndices(x).build()), 1);
        }
      }
      if (!taken.isEmpty()) {
        out.add(NodeAllocation.newBuilder().setNode(nodes.get(i)).addAllGres(taken).build());
      }
    }
    return out;
  }

  private static void atLeast(Map<String, GresCount> need, GresCount c) {
    need.merge(c.name() + ":" + c.type(), c, (a, b) -> a.count() >= b.count() ? a : b);
  }
}

package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.corral.common.gres.GresCount;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.CpuList;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * The CPUs running jobs hold on each node, as far as a plan's starts need them: a node's are
 * found on its first use, from the jobs holding it, and the starts accepted meanwhile add theirs.
 */
final class CpusHeld {
  private final ClusterState s;
  private final Function<String, List<JobInfo>> holders;
  private final Map<String, CpuIds> nodes = new HashMap<>();

  /** The running jobs of the state, lazily, by node. */
  static CpusHeld of(ClusterState s) {
    return new CpusHeld(s, new Function<>() {
      private Map<String, List<JobInfo>> byNode;

      @Override
      public List<JobInfo> apply(String name) {
        if (byNode == null) {
          byNode = holdersByNode(s);
        }
        return byNode.getOrDefault(name, List.of());
      }
    });
  }

  /** node -> the jobs holding its resources now: running, or taking turns under gang scheduling. */
  static Map<String, List<JobInfo>> holdersByNode(ClusterState s) {
    Map<String, List<JobInfo>> out = new HashMap<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (JobStates.holdsResources(j) && (j.getState() != JobState.SUSPENDED || j.getGangSuspended())) {
        for (NodeAllocation x : j.getAllocationList()) {
          out.computeIfAbsent(x.getNode(), k -> new ArrayList<>()).add(j);
        }
      }
    }
    return out;
  }

  /** @param holders the jobs holding a node's resources now */
  CpusHeld(ClusterState s, Function<String, List<JobInfo>> holders) {
    this.s = s;
    this.holders = holders;
  }

  /**
   * The allocation with the CPUs each node gives the job (near its GPUs first); null when the
   * job asks for --gres-flags=enforce-binding and no free GPUs of its kind on a node have enough
   * free CPUs near them. With enforce-binding, GPUs whose near CPUs are taken are exchanged for
   * free ones of the same type whose near CPUs are not.
   *
   * @param gresHeld the generic resources held on a node now (with the plan's starts)
   */
  List<NodeAllocation> place(List<NodeAllocation> allocation, JobInfo j, Function<String, List<GresAlloc>> gresHeld) {
    boolean enforce = j.getGresFlags().equals("enforce-binding");
    List<NodeAllocation> out = new ArrayList<>();
    for (NodeAllocation a : allocation) {
      NodeInfo n = s.nodes().get(a.getNode());
      if (n == null) {
        return null;
      }
      CpuIds node = of(a.getNode());
      BitSet ids = node.choose(a.getCpus(), Gres.closeCpus(n.getGresSlotsList(), a.getGresList()), enforce);
      if (ids == null) {
        List<GresAlloc> other = rebind(n, a, node, gresHeld.apply(a.getNode()));
        if (other == null) {
          return null;
        }
        a = a.toBuilder().clearGres().addAllGres(other).build();
        ids = node.choose(a.getCpus(), Gres.closeCpus(n.getGresSlotsList(), other), true);
      }
      out.add(a.toBuilder().setCpuIds(CpuList.format(ids)).build());
    }
    return out;
  }

  /** Free units of the allocation's kinds whose near CPUs have room for its CPUs; null when there are none. */
  private static List<GresAlloc> rebind(NodeInfo n, NodeAllocation a, CpuIds node, List<GresAlloc> held) {
    GresUnits units = GresUnits.of(n);
    List<GresCount> needs = a.getGresList().stream()
        .map(g -> new GresCount(g.getName(), g.getType(), g.getIndicesCount())).toList();
    return units.pickWithin(units.bits(held), needs, cores -> {
      try {
        return !cores.isEmpty() && node.choose(a.getCpus(), CpuList.parse(cores), true) != null;
      } catch (IllegalArgumentException e) {
        return false;
      }
    });
  }

  /** A placed allocation's CPUs are held from now on. */
  void take(List<NodeAllocation> placed) {
    for (NodeAllocation a : placed) {
      of(a.getNode()).take(CpuList.parse(a.getCpuIds()));
    }
  }

  private CpuIds of(String name) {
    return nodes.computeIfAbsent(name, k -> {
      CpuIds ids = new CpuIds(s.nodes().get(k).getCpus());
      for (JobInfo j : holders.apply(k)) {
        for (NodeAllocation x : j.getAllocationList()) {
          if (x.getNode().equals(k)) {
            ids.hold(x);
          }
        }
      }
      return ids;
    });
  }
}

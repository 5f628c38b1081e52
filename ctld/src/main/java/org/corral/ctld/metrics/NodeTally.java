package org.corral.ctld.metrics;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.protocol.NodeStates;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.NodeInfo;

/**
 * Counts of a group of nodes (the cluster's or one partition's) by base state and flag, as
 * sinfo derives them ({@link NodeStates}), and their CPUs and memory. Base states count once
 * each (idle, mixed, allocated, down, future, unknown); drain, fail, not responding, reserved
 * and maintenance are flags counted beside them. Power saving, cloud, dynamic and reboot states
 * do not exist in Corral and stay 0.
 */
final class NodeTally {
  enum Count {
    ALLOC, BLOCKED, COMPLETING, CLOUD, DOWN, DRAIN, DRAINED, DRAINING, DYN_FUTURE, DYN_NORMAL,
    EXTERNAL, FAIL, FUTURE, IDLE, INVALID_REG, MAINT, MIXED, NO_RESP, PLANNED, POWER_DOWN,
    POWER_UP, POWERED_DOWN, POWERING_DOWN, POWERING_UP, REBOOT_ISSUED, REBOOT_REQUESTED, RESV,
    UNKNOWN
  }

  private final long[] counts = new long[Count.values().length];
  long nodes;
  long cpus;
  long cpusAlloc;
  long memBytes;
  long memAllocBytes;
  long memFreeBytes;
  long gpus;
  long gpusAlloc;

  long get(Count c) {
    return counts[c.ordinal()];
  }

  private void count(Count c) {
    counts[c.ordinal()]++;
  }

  /** Adds a node; {@code completing} names the nodes a completing job still holds. */
  void add(NodeInfo n, Set<String> completing) {
    nodes++;
    NodeStates.Base base = NodeStates.base(n);
    switch (base) {
      case ALLOCATED -> count(Count.ALLOC);
      case MIXED -> count(Count.MIXED);
      case IDLE -> count(Count.IDLE);
      case DOWN -> count(Count.DOWN);
      case FUTURE -> count(Count.FUTURE);
      default -> count(Count.UNKNOWN);
    }
    boolean busy = base == NodeStates.Base.ALLOCATED || base == NodeStates.Base.MIXED;
    if (n.getDrain()) {
      count(Count.DRAIN);
      count(busy ? Count.DRAINING : Count.DRAINED);
    }
    if (n.getFail()) {
      count(Count.FAIL);
    }
    if (n.getNotResponding()) {
      count(Count.NO_RESP);
    }
    if (n.getReserved()) {
      count(Count.RESV);
    }
    if (n.getMaint()) {
      count(Count.MAINT);
    }
    if (completing.contains(n.getName())) {
      count(Count.COMPLETING);
    }
    cpus += n.getCpus();
    cpusAlloc += n.getAllocCpus();
    memBytes += n.getRealMemoryMb() << 20;
    memAllocBytes += n.getAllocMemMb() << 20;
    memFreeBytes += n.getFreeMemMb() << 20;
    gpus += gpus(n);
    gpusAlloc += gpusAlloc(n);
  }

  long cpusIdle() {
    return Math.max(0, cpus - cpusAlloc);
  }

  static long gpus(NodeInfo n) {
    long g = 0;
    for (GresSlot s : n.getGresSlotsList()) {
      if (s.getName().equals("gpu")) {
        g += s.getCount();
      }
    }
    return g;
  }

  static long gpusAlloc(NodeInfo n) {
    return gpus(n.getGresUsedList());
  }

  /** GPUs among allocated generic resources (a job's on one node, or all of a node's). */
  static long gpus(List<GresAlloc> allocated) {
    long g = 0;
    for (GresAlloc a : allocated) {
      if (a.getName().equals("gpu")) {
        g += a.getIndicesCount();
      }
    }
    return g;
  }

  /** Slurm's name and help of each state count on /metrics/nodes ({@code slurm_nodes_...}). */
  static final Map<Count, String[]> CLUSTER = Map.ofEntries(
      Map.entry(Count.ALLOC, new String[] {"alloc", "Number of nodes in Allocated state"}),
      Map.entry(Count.BLOCKED, new String[] {"blocked", "Number of nodes in Blocked state"}),
      Map.entry(Count.COMPLETING, new String[] {"completing", "Number of nodes with Completing flag"}),
      Map.entry(Count.CLOUD, new String[] {"cloud", "Number of Cloud nodes"}),
      Map.entry(Count.DOWN, new String[] {"down", "Number of nodes in Down state"}),
      Map.entry(Count.DRAIN, new String[] {"drain", "Number of nodes with Drain flag"}),
      Map.entry(Count.DRAINED, new String[] {"drained", "Number of drained nodes"}),
      Map.entry(Count.DRAINING, new String[] {"draining",
          "Number of nodes in draining condition (Drain state with active jobs)"}),
      Map.entry(Count.DYN_FUTURE, new String[] {"dyn_future", "Number of future dynamic nodes"}),
      Map.entry(Count.DYN_NORMAL, new String[] {"dyn_normal", "Number of dynamic nodes"}),
      Map.entry(Count.EXTERNAL, new String[] {"external", "Number of external nodes"}),
      Map.entry(Count.FAIL, new String[] {"fail", "Number of nodes with Fail flag"}),
      Map.entry(Count.FUTURE, new String[] {"future", "Number of nodes in Future state"}),
      Map.entry(Count.IDLE, new String[] {"idle", "Number of nodes in Idle state"}),
      Map.entry(Count.INVALID_REG, new String[] {"invalid_reg", "Number of nodes with Invalid Registration flag"}),
      Map.entry(Count.MAINT, new String[] {"maint", "Number of nodes with Maintenance flag"}),
      Map.entry(Count.MIXED, new String[] {"mixed", "Number of nodes in Mixed state"}),
      Map.entry(Count.NO_RESP, new String[] {"noresp", "Number of nodes with Not Responding flag"}),
      Map.entry(Count.PLANNED, new String[] {"planned", "Number of nodes with Planned flag"}),
      Map.entry(Count.POWER_DOWN, new String[] {"power_down", "Number of nodes marked to be powered down"}),
      Map.entry(Count.POWER_UP, new String[] {"power_up", "Number of nodes marked to be powered up"}),
      Map.entry(Count.POWERED_DOWN, new String[] {"powered_down", "Number of nodes powered down"}),
      Map.entry(Count.POWERING_DOWN, new String[] {"powering_down", "Number of nodes powering down"}),
      Map.entry(Count.POWERING_UP, new String[] {"powering_up", "Number of nodes powering up"}),
      Map.entry(Count.REBOOT_ISSUED, new String[] {"reboot_issued", "Number of nodes with Reboot Issued flag"}),
      Map.entry(Count.REBOOT_REQUESTED, new String[] {"reboot_req", "Number of nodes with Reboot Requested flag"}),
      Map.entry(Count.RESV, new String[] {"resv", "Number of nodes with Reserved flag"}),
      Map.entry(Count.UNKNOWN, new String[] {"unknown", "Number of nodes in Unknown state"}));

  /** The same counts per partition ({@code slurm_partition_nodes_...}), with Slurm's names there. */
  static final Map<Count, String[]> PARTITION = Map.ofEntries(
      Map.entry(Count.ALLOC, new String[] {"alloc", "Nodes allocated"}),
      Map.entry(Count.BLOCKED, new String[] {"blocked", "Nodes blocked"}),
      Map.entry(Count.COMPLETING, new String[] {"cg", "Nodes in completing state"}),
      Map.entry(Count.CLOUD, new String[] {"cloud", "Cloud nodes"}),
      Map.entry(Count.DOWN, new String[] {"down", "Nodes in Down state"}),
      Map.entry(Count.DRAIN, new String[] {"drain", "Nodes in Drain state"}),
      Map.entry(Count.DRAINED, new String[] {"drained", "Nodes in Drained state"}),
      Map.entry(Count.DRAINING, new String[] {"draining",
          "Number of nodes in draining condition (Drain state with active jobs)"}),
      Map.entry(Count.DYN_FUTURE, new String[] {"dyn_future", "Dynamic nodes in Future state"}),
      Map.entry(Count.DYN_NORMAL, new String[] {"dyn_normal", "Dynamic nodes"}),
      Map.entry(Count.EXTERNAL, new String[] {"external", "External nodes"}),
      Map.entry(Count.FAIL, new String[] {"fail", "Nodes in Fail state"}),
      Map.entry(Count.FUTURE, new String[] {"future", "Nodes in Future state"}),
      Map.entry(Count.IDLE, new String[] {"idle", "Nodes in Idle state"}),
      Map.entry(Count.INVALID_REG, new String[] {"invalid_reg", "Number of nodes with Invalid Registration flag"}),
      Map.entry(Count.MAINT, new String[] {"maint", "Nodes in maintenance state"}),
      Map.entry(Count.MIXED, new String[] {"mixed", "Nodes in Mixed state"}),
      Map.entry(Count.NO_RESP, new String[] {"no_resp", "Nodes in Not Responding state"}),
      Map.entry(Count.PLANNED, new String[] {"planned", "Nodes in Planned state"}),
      Map.entry(Count.POWER_DOWN, new String[] {"power_down", "Nodes marked to Power Down"}),
      Map.entry(Count.POWER_UP, new String[] {"power_up", "Nodes marked to Power Up"}),
      Map.entry(Count.POWERED_DOWN, new String[] {"powered_down", "Powered down nodes"}),
      Map.entry(Count.POWERING_DOWN, new String[] {"powering_down", "Powering down nodes"}),
      Map.entry(Count.POWERING_UP, new String[] {"powering_up", "Powering up nodes"}),
      Map.entry(Count.REBOOT_ISSUED, new String[] {"reboot_issued", "Nodes which initiated reboot"}),
      Map.entry(Count.REBOOT_REQUESTED, new String[] {"reboot_requested", "Nodes with Reboot Requested flag"}),
      Map.entry(Count.RESV, new String[] {"resv", "Nodes with Reserved flag"}),
      Map.entry(Count.UNKNOWN, new String[] {"unknown", "Nodes in Unknown state"}));
}

package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.corral.common.BillingWeights;
import org.corral.common.Hostlist;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.PartitionConfig;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/** The nodes and partitions slurm.conf defines, in the controller's message form. */
final class ConfiguredCluster {
  private ConfiguredCluster() {}

  static List<NodeInfo> nodes(SlurmConfig cfg) {
    List<NodeInfo> out = new ArrayList<>();
    for (NodeConfig n : cfg.nodes()) {
      String state = n.state() == null ? "" : n.state().toUpperCase(Locale.ROOT);
      NodeInfo.Builder b = NodeInfo.newBuilder()
          .setName(n.name()).setHostname(n.hostname()).setAddr(n.addr()).setPort(n.port())
          .setCpus(n.cpus()).setSockets(n.sockets()).setCoresPerSocket(n.coresPerSocket())
          .setThreadsPerCore(n.threadsPerCore()).setRealMemoryMb(n.realMemoryMb())
          .setTmpDiskMb(n.tmpDiskMb()).setWeight(n.weight()).addAllFeatures(n.features())
          .setGres(n.gres() == null ? "" : n.gres())
          .addAllGresSlots(gresSlots(n))
          .addAllGresTypes(gresTypes(cfg))
          .setBaseState(state.startsWith("FUTURE") ? NodeBaseState.NODE_FUTURE
              : state.startsWith("DOWN") ? NodeBaseState.NODE_DOWN : NodeBaseState.NODE_UNKNOWN)
          .setDrain(state.startsWith("DRAIN"))
          .setReason(n.reason() == null ? "" : n.reason());
      for (PartitionConfig p : cfg.partitions()) {
        if (p.nodeNames().contains(n.name())) {
          b.addPartitions(p.name());
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /** GresTypes=gpu,nic: the names, in order. */
  private static List<String> gresTypes(SlurmConfig cfg) {
    return cfg.value(SlurmConfKeys.GRES_TYPES);
  }

  /** The node's Gres= as slots, until it reports its own (an unreadable Gres= gives none). */
  private static List<org.corral.protocol.msg.GresSlot> gresSlots(NodeConfig n) {
    try {
      return org.corral.protocol.Gres.slotsFromConfig(n.gres() == null ? "" : n.gres());
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }

  static List<PartitionInfo> partitions(SlurmConfig cfg) {
    List<PartitionInfo> out = new ArrayList<>();
    for (PartitionConfig p : cfg.partitions()) {
      int cpus = 0;
      long mem = 0;
      for (String name : p.nodeNames()) {
        cpus += cfg.node(name).map(NodeConfig::cpus).orElse(0);
        mem += cfg.node(name).map(NodeConfig::realMemoryMb).orElse(0L);
      }
      boolean maxTres = cfg.scheduling().hasFlag("MAX_TRES");
      long billing = BillingWeights.stored(p.billingWeights().billing(
          Map.of("cpu", (long) cpus, "mem", mem, "node", (long) p.nodeNames().size()), maxTres));
      out.add(PartitionInfo.newBuilder()
          .setName(p.name()).setNodes(Hostlist.compress(p.nodeNames())).addAllNodeNames(p.nodeNames())
          .setIsDefault(p.isDefault()).setMaxTimeMin((int) p.maxTimeMin())
          .setDefaultTimeMin((int) p.defaultTimeMin()).setState(p.state())
          .setMinNodes(p.minNodes()).setMaxNodes((int) p.maxNodes())
          .setDefMemPerCpuMb(p.defMemPerCpuMb().orElse(0))
          .setDefMemPerNodeMb(p.defMemPerNodeMb().orElse(0))
          .setMaxMemPerCpuMb(p.maxMemPerCpuMb().orElse(0))
          .setMaxMemPerNodeMb(p.maxMemPerNodeMb().orElse(0))
          .setAllowGroups(p.allowGroups()).setAllowAccounts(p.allowAccounts())
          .setDenyAccounts(p.denyAccounts() == null ? "" : p.denyAccounts())
          .setAllowQos(p.allowQos()).setPriorityTier(p.priorityTier())
          .setPriorityJobFactor(p.priorityJobFactor()).setHidden(p.hidden())
          .setRootOnly(p.rootOnly()).setOversubscribe(p.oversubscribe())
          .setExclusiveUser(p.exclusiveUser()).setGraceTime(p.graceTime())
          .setPreemptMode(p.preemptMode() == null ? "OFF" : p.preemptMode())
          .setMaxCpusPerNode((int) p.maxCpusPerNode())
          .setTotalCpus(cpus).setTotalNodes(p.nodeNames().size())
          .setTresBillingWeights(p.billingWeights().text())
          .setBillingMaxTres(maxTres).setTotalBilling(billing)
          .build());
    }
    return out;
  }
}

package org.corral.cli.scontrol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.MemorySize;
import org.corral.protocol.Billing;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/** A partition as {@code scontrol show partition} prints it. */
final class PartitionText {
  private PartitionText() {}

  static Entry of(PartitionInfo p, Map<String, NodeInfo> nodes) {
    List<String> l = new ArrayList<>();
    l.add("PartitionName=" + p.getName());
    l.add("AllowGroups=" + or(p.getAllowGroups(), "ALL") + " AllowAccounts="
        + or(p.getAllowAccounts(), "ALL") + " AllowQos=" + or(p.getAllowQos(), "ALL"));
    l.add("AllocNodes=ALL Default=" + yn(p.getIsDefault()) + " QoS=N/A");
    l.add("DefaultTime=" + limit(p.getDefaultTimeMin(), "NONE") + " DisableRootJobs=NO"
        + " ExclusiveUser=" + yn(p.getExclusiveUser()) + " GraceTime=" + p.getGraceTime()
        + " Hidden=" + yn(p.getHidden()));
    l.add("MaxNodes=" + count(p.getMaxNodes()) + " MaxTime=" + limit(p.getMaxTimeMin(), "UNLIMITED")
        + " MinNodes=" + p.getMinNodes() + " LLN=" + yn(p.getLln()) + " MaxCPUsPerNode="
        + count(p.getMaxCpusPerNode()));
    if (!p.getDenyAccounts().isEmpty()) {
      l.add("DenyAccounts=" + p.getDenyAccounts());
    }
    l.add("Nodes=" + p.getNodes());
    l.add("PriorityJobFactor=" + p.getPriorityJobFactor() + " PriorityTier=" + p.getPriorityTier()
        + " RootOnly=" + yn(p.getRootOnly()) + " ReqResv=" + yn(p.getReqResv())
        + " OverSubscribe=" + or(p.getOversubscribe(), "NO"));
    l.add("OverTimeLimit=NONE PreemptMode=" + or(p.getPreemptMode(), "OFF"));
    l.add("State=" + or(p.getState(), "UP") + " TotalCPUs=" + p.getTotalCpus() + " TotalNodes="
        + p.getTotalNodes() + " SelectTypeParameters=NONE");
    l.add("JobDefaults=(null)");
    l.add(memory("Def", p.getDefMemPerCpuMb(), p.getDefMemPerNodeMb()) + " "
        + memory("Max", p.getMaxMemPerCpuMb(), p.getMaxMemPerNodeMb()));
    long mem = p.getNodeNamesList().stream().map(nodes::get)
        .filter(n -> n != null).mapToLong(NodeInfo::getRealMemoryMb).sum();
    l.add("TRES=cpu=" + p.getTotalCpus() + ",mem=" + MemorySize.format(mem) + ",node="
        + p.getTotalNodes() + ",billing=" + Billing.partition(p));
    if (!p.getTresBillingWeights().isEmpty()) {
      l.add("TRESBillingWeights=" + p.getTresBillingWeights());
    }
    return new Entry(l);
  }

  private static String memory(String prefix, long perCpu, long perNode) {
    if (perCpu > 0) {
      return prefix + "MemPerCPU=" + perCpu;
    }
    return prefix + "MemPerNode=" + (perNode > 0 ? Long.toString(perNode) : "UNLIMITED");
  }

  private static String or(String s, String dflt) {
    return s.isEmpty() ? dflt : s;
  }

  private static String yn(boolean b) {
    return b ? "YES" : "NO";
  }

  private static String count(int v) {
    return Integer.toUnsignedLong(v) == SlurmTimes.INFINITE ? "UNLIMITED"
        : Integer.toUnsignedString(v);
  }

  private static String limit(int minutes, String infinite) {
    return SlurmTimes.limitHms(Integer.toUnsignedLong(minutes)).replace("UNLIMITED", infinite);
  }
}

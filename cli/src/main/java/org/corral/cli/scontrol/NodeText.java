package org.corral.cli.scontrol;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.NodeStates;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.NodeFeatures;
import org.corral.protocol.msg.NodeInfo;

/** A node as {@code scontrol show node} prints it. */
final class NodeText {
  private NodeText() {}

  private static String features(List<String> f) {
    return f.isEmpty() ? "(null)" : String.join(",", f);
  }

  static Entry of(NodeInfo n, ZoneId zone, UserDirectory users) {
    return of(n, zone, users, false);
  }

  /** {@code details} (-d) adds GresDrain= and GresUsed= where the node has generic resources. */
  static Entry of(NodeInfo n, ZoneId zone, UserDirectory users, boolean details) {
    List<String> l = new ArrayList<>();
    // Corral's nodes do not report their machine type yet; Slurm prints (null) when unknown.
    l.add("NodeName=" + n.getName() + " Arch=" + (n.getArch().isEmpty() ? "(null)" : n.getArch()) + " CoresPerSocket=" + n.getCoresPerSocket() + " ");
    // jobs sharing CPUs (OverSubscribe) count each of them once
    int allocCpus = Math.min(n.getAllocCpus(), n.getCpus());
    l.add("CPUAlloc=" + allocCpus + " CPUEfctv=" + n.getCpus() + " CPUTot=" + n.getCpus()
        + " CPULoad=" + String.format("%.2f", n.getCpuLoad() / 100.0));
    l.add("AvailableFeatures=" + features(n.getFeaturesList()));
    l.add("ActiveFeatures=" + features(NodeFeatures.active(n)));
    l.add("Gres=" + org.corral.cli.format.GresText.node(n));
    if (details && (n.getGresSlotsCount() > 0 || n.getGresTypesCount() > 0)) {
      l.add("GresDrain=N/A");
      l.add("GresUsed=" + org.corral.cli.format.GresText.used(n));
    }
    l.add("NodeAddr=" + n.getAddr() + " NodeHostName=" + n.getHostname() + " Port="
        + n.getPort() + " Version=" + n.getVersion());
    l.add("OS=" + n.getOs() + " ");
    l.add("RealMemory=" + n.getRealMemoryMb() + " AllocMem=" + n.getAllocMemMb() + " FreeMem="
        + n.getFreeMemMb() + " Sockets=" + n.getSockets() + " Boards=1");
    l.add("State=" + NodeStates.scontrol(n) + " ThreadsPerCore=" + n.getThreadsPerCore()
        + " TmpDisk=" + n.getTmpDiskMb() + " Weight=" + Integer.toUnsignedString(n.getWeight())
        + " Owner=N/A MCS_label=N/A");
    l.add("Partitions=" + String.join(",", n.getPartitionsList()) + " ");
    l.add("BootTime=" + time(n.getBootTime(), zone) + " SlurmdStartTime="
        + time(n.getSlurmdStartTime(), zone));
    l.add("LastBusyTime=" + time(n.getLastBusy(), zone));
    l.add("CfgTRES=cpu=" + n.getCpus() + ",mem=" + n.getRealMemoryMb() + "M,billing="
        + n.getCpus());
    l.add("AllocTRES=" + (allocCpus == 0 ? ""
        : "cpu=" + allocCpus + ",mem=" + n.getAllocMemMb() + "M"));
    l.add("CapWatts=n/a");
    l.add("CurrentWatts=0 AveWatts=0");
    l.add("ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s");
    if (!n.getReason().isEmpty()) {
      String who = users.nameOf(n.getReasonUid()).orElse(Integer.toUnsignedString(n.getReasonUid()));
      l.add("Reason=" + n.getReason() + " [" + who + "@" + time(n.getReasonTime(), zone) + "]");
    }
    return new Entry(l);
  }

  private static String time(long epoch, ZoneId zone) {
    return SlurmTimes.iso(epoch, zone, "None");
  }
}

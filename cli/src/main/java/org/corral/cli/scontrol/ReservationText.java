package org.corral.cli.scontrol;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.Hostlist;
import org.corral.common.ReservationFlags;
import org.corral.common.SlurmDuration;
import org.corral.protocol.msg.ReservationInfo;

/** A reservation as {@code scontrol show reservation} prints it (Slurm 22.05's layout). */
public final class ReservationText {
  private ReservationText() {}

  static Entry of(ReservationInfo r, long now, ZoneId zone) {
    List<String> l = new ArrayList<>();
    l.add("ReservationName=" + r.getName() + " StartTime=" + SlurmTimes.iso(r.getStartTime(), zone, "Unknown")
        + " EndTime=" + SlurmTimes.iso(r.getEndTime(), zone, "Unknown")
        + " Duration=" + SlurmDuration.formatSecondsPadded(r.getEndTime() - r.getStartTime()));
    l.add("Nodes=" + or(Hostlist.compress(r.getNodeNamesList())) + " NodeCnt=" + r.getNodeNamesCount()
        + " CoreCnt=" + r.getCoreCnt() + " Features=(null) PartitionName=" + or(r.getPartition())
        + " Flags=" + ReservationFlags.shown(r.getFlagsList(), r.getPurgeCompTime()));
    for (int i = 0; i < r.getNodeCoresCount() && i < r.getNodeNamesCount(); i++) {
      // Corral counts a core reservation's CPUs per node but does not pick them: shown as the
      // node's first ones, which is what the reference reports for idle nodes
      int cores = r.getNodeCores(i);
      l.add("  NodeName=" + r.getNodeNames(i) + " CoreIDs=" + (cores == 1 ? "0" : "0-" + (cores - 1)));
    }
    l.add("TRES=cpu=" + r.getCoreCnt());
    l.add("Users=" + or(String.join(",", r.getUsersList())) + " Groups=(null) Accounts="
        + or(String.join(",", r.getAccountsList())) + " Licenses=(null) State=" + state(r, now)
        + " BurstBuffer=(null) Watts=n/a");
    l.add("MaxStartDelay=(null)");
    return new Entry(l);
  }

  /** ACTIVE while the reservation holds its nodes, INACTIVE before. */
  public static String state(ReservationInfo r, long now) {
    return r.getStartTime() <= now && now < r.getEndTime() ? "ACTIVE" : "INACTIVE";
  }

  private static String or(String s) {
    return s.isEmpty() ? "(null)" : s;
  }
}

package org.corral.cli.sinfo;

import java.io.PrintStream;
import java.time.ZoneId;
import java.util.List;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.scontrol.ReservationText;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;
import org.corral.protocol.msg.ReservationInfo;

/**
 * {@code sinfo -T}: one line per reservation. The name column is as wide as the longest name (at
 * least RESV_NAME's), then STATE right-aligned in 8, the times in 19, DURATION in 11, as the
 * reference printed them.
 */
final class ReservationTable {
  private ReservationTable() {}

  static void print(List<ReservationInfo> all, long now, ZoneId zone, PrintStream out) {
    if (all.isEmpty()) {
      out.println("No reservations in the system");
      return;
    }
    int width = "RESV_NAME".length();
    for (ReservationInfo r : all) {
      width = Math.max(width, r.getName().length());
    }
    String format = "%-" + width + "s  %8s  %19s  %19s  %11s  %s%n";
    out.printf(format, "RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST");
    for (ReservationInfo r : all) {
      out.printf(format, r.getName(), ReservationText.state(r, now), SlurmTimes.iso(r.getStartTime(), zone, "Unknown"),
          SlurmTimes.iso(r.getEndTime(), zone, "Unknown"),
          SlurmDuration.formatSecondsPadded(r.getEndTime() - r.getStartTime()), Hostlist.compress(r.getNodeNamesList()));
    }
  }
}

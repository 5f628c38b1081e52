package org.corral.cli.scontrol;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.MemorySize;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.StepInfo;

/** A step as {@code scontrol show step} prints it. */
final class StepText {
  private StepText() {}

  static Entry of(StepInfo s, ZoneId zone) {
    boolean batch = s.getStepId() == StepIds.BATCH;
    List<String> l = new ArrayList<>();
    l.add("StepId=" + Integer.toUnsignedString(s.getJobId()) + "." + StepIds.name(s.getStepId())
        + " UserId=" + Integer.toUnsignedString(s.getUserId())
        + " StartTime=" + SlurmTimes.iso(s.getStartTime(), zone, "Unknown")
        + " TimeLimit=" + SlurmTimes.limitHms(Integer.toUnsignedLong(s.getTimeLimitMin())));
    l.add("State=" + s.getState().name() + " Partition=" + s.getPartition() + " NodeList=" + s.getNodes());
    l.add("Nodes=" + s.getNodeNamesCount() + " CPUs=" + Integer.toUnsignedString(s.getNumCpus())
        + " Tasks=" + Integer.toUnsignedString(s.getNumTasks()) + " Name=" + s.getName() + " Network=(null)");
    l.add("TRES=" + (batch ? "(null)" : tres(s)));
    l.add("ResvPorts=(null)");
    l.add("CPUFreqReq=Default" + (batch ? "" : " Dist=Block"));
    l.add("SrunHost:Pid=" + (s.getSrunHost().isEmpty() ? "(null)" : s.getSrunHost()) + ":"
        + Integer.toUnsignedString(s.getSrunPid()));
    return new Entry(l);
  }

  private static String tres(StepInfo s) {
    StringBuilder b = new StringBuilder("cpu=").append(Integer.toUnsignedString(s.getNumCpus()));
    if (s.getMemPerNodeMb() > 0) {
      b.append(",mem=").append(MemorySize.format(s.getMemPerNodeMb() * s.getNodeNamesCount()));
    }
    return b.append(",node=").append(s.getNodeNamesCount()).toString();
  }
}

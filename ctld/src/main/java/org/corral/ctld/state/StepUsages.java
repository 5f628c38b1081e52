package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.Hostlist;
import org.corral.protocol.msg.StepUsage;

/** Usage of one step measured on several nodes, as one (sstat's live figures, accounting's final ones). */
public final class StepUsages {
  private StepUsages() {}

  /** One step's usage over its nodes: maxima and minima with where they occurred, averages per task. */
  public static StepUsage combine(List<StepUsage> parts) {
    StepUsage first = parts.get(0);
    if (parts.size() == 1) {
      return first;
    }
    StepUsage.Builder b = first.toBuilder();
    List<String> nodes = new ArrayList<>();
    long tasks = 0;
    long aveVm = 0;
    long aveRss = 0;
    long avePages = 0;
    long aveCpu = 0;
    long aveRead = 0;
    long aveWrite = 0;
    long freq = 0;
    for (StepUsage u : parts) {
      nodes.addAll(Hostlist.expand(u.getNodes()));
      long n = Math.max(1, u.getNtasks());
      tasks += n;
      aveVm += u.getAveVmsizeKb() * n;
      aveRss += u.getAveRssKb() * n;
      avePages += u.getAvePages() * n;
      aveCpu += u.getAveCpuMs() * n;
      aveRead += u.getAveDiskRead() * n;
      aveWrite += u.getAveDiskWrite() * n;
      freq += u.getAveCpuFreqKhz() * n;
      if (u == first) {
        continue;
      }
      if (u.getMaxVmsizeKb() > b.getMaxVmsizeKb()) {
        b.setMaxVmsizeKb(u.getMaxVmsizeKb()).setMaxVmsizeNode(u.getMaxVmsizeNode()).setMaxVmsizeTask(u.getMaxVmsizeTask());
      }
      if (u.getMaxRssKb() > b.getMaxRssKb()) {
        b.setMaxRssKb(u.getMaxRssKb()).setMaxRssNode(u.getMaxRssNode()).setMaxRssTask(u.getMaxRssTask());
      }
      if (u.getMaxPages() > b.getMaxPages()) {
        b.setMaxPages(u.getMaxPages()).setMaxPagesNode(u.getMaxPagesNode()).setMaxPagesTask(u.getMaxPagesTask());
      }
      if (u.getMinCpuMs() < b.getMinCpuMs()) {
        b.setMinCpuMs(u.getMinCpuMs()).setMinCpuNode(u.getMinCpuNode()).setMinCpuTask(u.getMinCpuTask());
      }
      if (u.getMaxDiskRead() > b.getMaxDiskRead()) {
        b.setMaxDiskRead(u.getMaxDiskRead()).setMaxDiskReadNode(u.getMaxDiskReadNode())
            .setMaxDiskReadTask(u.getMaxDiskReadTask());
      }
      if (u.getMaxDiskWrite() > b.getMaxDiskWrite()) {
        b.setMaxDiskWrite(u.getMaxDiskWrite()).setMaxDiskWriteNode(u.getMaxDiskWriteNode())
            .setMaxDiskWriteTask(u.getMaxDiskWriteTask());
      }
      b.addAllPids(u.getPidsList()).setUserCpuMs(b.getUserCpuMs() + u.getUserCpuMs())
          .setSysCpuMs(b.getSysCpuMs() + u.getSysCpuMs()).setOutOfMemory(b.getOutOfMemory() || u.getOutOfMemory());
    }
    return b.setNodes(Hostlist.compress(nodes)).setNtasks((int) tasks).setAveVmsizeKb(aveVm / tasks)
        .setAveRssKb(aveRss / tasks).setAvePages(avePages / tasks).setAveCpuMs(aveCpu / tasks)
        .setAveDiskRead(aveRead / tasks).setAveDiskWrite(aveWrite / tasks).setAveCpuFreqKhz(freq / tasks).build();
  }
}

package org.corral.cli.sstat;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.corral.protocol.msg.StepUsage;

/**
 * The fields sstat can show (--helpformat lists them), each with Slurm's column width. Values
 * come from one step's {@link StepUsage}; the flag is --noconvert.
 */
record SstatField(String name, int width, BiFunction<StepUsage, Boolean, String> value) {

  static final List<SstatField> ALL = List.of(
      f("AveCPU", 10, (u, n) -> UsageText.cpuTime(u.getAveCpuMs())),
      f("AveCPUFreq", 10, (u, n) -> UsageText.kilohertz(u.getAveCpuFreqKhz())),
      f("AveDiskRead", 12, (u, n) -> UsageText.count(u.getAveDiskRead(), n)),
      f("AveDiskWrite", 12, (u, n) -> UsageText.count(u.getAveDiskWrite(), n)),
      f("AvePages", 10, (u, n) -> UsageText.count(u.getAvePages(), n)),
      f("AveRSS", 10, (u, n) -> UsageText.kib(u.getAveRssKb(), n)),
      f("AveVMSize", 10, (u, n) -> UsageText.kib(u.getAveVmsizeKb(), n)),
      f("ConsumedEnergy", 14, (u, n) -> "0"),
      f("ConsumedEnergyRaw", 17, (u, n) -> "0"),
      f("JobID", 12, (u, n) -> Integer.toUnsignedString(u.getJobId()) + "." + u.getStep()),
      f("MaxDiskRead", 12, (u, n) -> UsageText.count(u.getMaxDiskRead(), n)),
      f("MaxDiskReadNode", 15, (u, n) -> u.getMaxDiskReadNode()),
      f("MaxDiskReadTask", 15, (u, n) -> Integer.toString(u.getMaxDiskReadTask())),
      f("MaxDiskWrite", 12, (u, n) -> UsageText.count(u.getMaxDiskWrite(), n)),
      f("MaxDiskWriteNode", 16, (u, n) -> u.getMaxDiskWriteNode()),
      f("MaxDiskWriteTask", 16, (u, n) -> Integer.toString(u.getMaxDiskWriteTask())),
      f("MaxPages", 8, (u, n) -> UsageText.count(u.getMaxPages(), n)),
      f("MaxPagesNode", 12, (u, n) -> u.getMaxPagesNode()),
      f("MaxPagesTask", 14, (u, n) -> Integer.toString(u.getMaxPagesTask())),
      f("MaxRSS", 10, (u, n) -> UsageText.kib(u.getMaxRssKb(), n)),
      f("MaxRSSNode", 10, (u, n) -> u.getMaxRssNode()),
      f("MaxRSSTask", 10, (u, n) -> Integer.toString(u.getMaxRssTask())),
      f("MaxVMSize", 10, (u, n) -> UsageText.kib(u.getMaxVmsizeKb(), n)),
      f("MaxVMSizeNode", 14, (u, n) -> u.getMaxVmsizeNode()),
      f("MaxVMSizeTask", 14, (u, n) -> Integer.toString(u.getMaxVmsizeTask())),
      f("MinCPU", 10, (u, n) -> UsageText.cpuTime(u.getMinCpuMs())),
      f("MinCPUNode", 10, (u, n) -> u.getMinCpuNode()),
      f("MinCPUTask", 10, (u, n) -> Integer.toString(u.getMinCpuTask())),
      f("Nodelist", 20, (u, n) -> u.getNodes()),
      f("NTasks", 8, (u, n) -> Integer.toString(u.getNtasks())),
      f("Pids", 20, (u, n) -> u.getPidsList().stream().map(String::valueOf).collect(Collectors.joining(","))),
      f("ReqCPUFreq", 10, (u, n) -> "0"),
      f("ReqCPUFreqMin", 13, (u, n) -> "0"),
      f("ReqCPUFreqMax", 13, (u, n) -> "0"),
      f("ReqCPUFreqGov", 13, (u, n) -> "0"),
      f("TRESUsageInAve", 14, (u, n) -> TresUsage.in(u.getAveCpuMs(), u.getAveDiskRead(), u.getAveRssKb(),
          u.getAvePages(), u.getAveVmsizeKb(), n)),
      f("TRESUsageInMax", 14, (u, n) -> TresUsage.in(u.getAveCpuMs(), u.getMaxDiskRead(), u.getMaxRssKb(),
          u.getMaxPages(), u.getMaxVmsizeKb(), n)),
      f("TRESUsageInMaxNode", 18, (u, n) -> TresUsage.inNodes(u.getMinCpuNode(), u.getMaxDiskReadNode(),
          u.getMaxRssNode(), u.getMaxPagesNode(), u.getMaxVmsizeNode())),
      f("TRESUsageInMaxTask", 18, (u, n) -> TresUsage.inTasks(u.getMinCpuTask(), u.getMaxDiskReadTask(),
          u.getMaxRssTask(), u.getMaxPagesTask(), u.getMaxVmsizeTask())),
      f("TRESUsageInMin", 14, (u, n) -> TresUsage.in(u.getMinCpuMs(), u.getMaxDiskRead(), u.getMaxRssKb(),
          u.getMaxPages(), u.getMaxVmsizeKb(), n)),
      f("TRESUsageInMinNode", 18, (u, n) -> TresUsage.inNodes(u.getMinCpuNode(), u.getMaxDiskReadNode(),
          u.getMaxRssNode(), u.getMaxPagesNode(), u.getMaxVmsizeNode())),
      f("TRESUsageInMinTask", 18, (u, n) -> TresUsage.inTasks(u.getMinCpuTask(), u.getMaxDiskReadTask(),
          u.getMaxRssTask(), u.getMaxPagesTask(), u.getMaxVmsizeTask())),
      f("TRESUsageInTot", 14, (u, n) -> TresUsage.in(u.getAveCpuMs() * Math.max(1, u.getNtasks()),
          u.getAveDiskRead() * Math.max(1, u.getNtasks()), u.getAveRssKb() * Math.max(1, u.getNtasks()),
          u.getAvePages() * Math.max(1, u.getNtasks()), u.getAveVmsizeKb() * Math.max(1, u.getNtasks()), n)),
      f("TRESUsageOutAve", 15, (u, n) -> TresUsage.out(u.getAveDiskWrite(), n)),
      f("TRESUsageOutMax", 15, (u, n) -> TresUsage.out(u.getMaxDiskWrite(), n)),
      f("TRESUsageOutMaxNode", 19, (u, n) -> "energy=" + u.getMaxDiskWriteNode() + ",fs/disk=" + u.getMaxDiskWriteNode()),
      f("TRESUsageOutMaxTask", 19, (u, n) -> "fs/disk=" + u.getMaxDiskWriteTask()),
      f("TRESUsageOutMin", 15, (u, n) -> TresUsage.out(u.getMaxDiskWrite(), n)),
      f("TRESUsageOutMinNode", 19, (u, n) -> "energy=" + u.getMaxDiskWriteNode() + ",fs/disk=" + u.getMaxDiskWriteNode()),
      f("TRESUsageOutMinTask", 19, (u, n) -> "fs/disk=" + u.getMaxDiskWriteTask()),
      f("TRESUsageOutTot", 15, (u, n) -> TresUsage.out(u.getAveDiskWrite() * Math.max(1, u.getNtasks()), n)));

  /** The columns shown without -o, in Slurm's order. */
  static final List<String> DEFAULT = List.of("JobID", "MaxVMSize", "MaxVMSizeNode", "MaxVMSizeTask", "AveVMSize",
      "MaxRSS", "MaxRSSNode", "MaxRSSTask", "AveRSS", "MaxPages", "MaxPagesNode", "MaxPagesTask", "AvePages",
      "MinCPU", "MinCPUNode", "MinCPUTask", "AveCPU", "NTasks", "AveCPUFreq", "ReqCPUFreqMin", "ReqCPUFreqMax",
      "ReqCPUFreqGov", "ConsumedEnergy", "MaxDiskRead", "MaxDiskReadNode", "MaxDiskReadTask", "AveDiskRead",
      "MaxDiskWrite", "MaxDiskWriteNode", "MaxDiskWriteTask", "AveDiskWrite", "TRESUsageInAve", "TRESUsageInMax",
      "TRESUsageInMaxNode", "TRESUsageInMaxTask", "TRESUsageInMin", "TRESUsageInMinNode", "TRESUsageInMinTask",
      "TRESUsageInTot", "TRESUsageOutAve", "TRESUsageOutMax", "TRESUsageOutMaxNode", "TRESUsageOutMaxTask",
      "TRESUsageOutMin", "TRESUsageOutMinNode", "TRESUsageOutMinTask", "TRESUsageOutTot");

  /** -i/--pidformat. */
  static final List<String> PIDS = List.of("JobID", "Nodelist", "Pids");

  private static SstatField f(String name, int width, BiFunction<StepUsage, Boolean, String> value) {
    return new SstatField(name, width, value);
  }

  static Optional<SstatField> named(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return ALL.stream().filter(f -> f.name.toLowerCase(Locale.ROOT).equals(n)).findFirst();
  }

  /** JobID is left-justified; every other column right-justified. */
  boolean leftJustified() {
    return name.equals("JobID");
  }
}

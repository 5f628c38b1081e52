package org.corral.cli.sacct;

import org.corral.cli.format.SlurmTimes;
import org.corral.protocol.msg.StepUsage;

/**
 * The TRESUsageIn... and TRESUsageOut... strings of a step ("cpu=00:00:00,energy=0,fs/disk=2012,
 * mem=1184K,pages=0,vmem=218108K"); a job line has none (blank).
 */
final class TresUsage {
  private TresUsage() {}

  private static String in(Row r, long cpuMs, long diskBytes, long memKb, long pages, long vmKb) {
    Units u = r.ctx().units();
    return "cpu=" + SlurmTimes.hms(cpuMs / 1000) + ",energy=0,fs/disk=" + u.format(diskBytes, Units.NONE, 1024)
        + ",mem=" + u.format(memKb * 1024.0, Units.NONE, 1024) + ",pages=" + pages
        + ",vmem=" + u.format(vmKb * 1024.0, Units.NONE, 1024);
  }

  private static StepUsage usage(Row r) {
    return r.sampled();
  }

  /** A step never sampled still totals its energy (0); the other strings stay blank. */
  private static String unsampled(Row r) {
    return r.isStep() ? "energy=0" : null;
  }

  static String inAve(Row r) {
    StepUsage s = usage(r);
    if (s == null) {
      return unsampled(r);
    }
    return s == null ? null : in(r, s.getAveCpuMs(), s.getAveDiskRead(), s.getAveRssKb(), s.getAvePages(),
        s.getAveVmsizeKb());
  }

  static String inMax(Row r) {
    StepUsage s = usage(r);
    return s == null ? null : in(r, s.getAveCpuMs(), s.getMaxDiskRead(), s.getMaxRssKb(), s.getMaxPages(),
        s.getMaxVmsizeKb());
  }

  static String inMin(Row r) {
    StepUsage s = usage(r);
    return s == null ? null : in(r, s.getMinCpuMs(), s.getMaxDiskRead(), s.getMaxRssKb(), s.getMaxPages(),
        s.getMaxVmsizeKb());
  }

  static String inTot(Row r) {
    StepUsage s = usage(r);
    if (s == null) {
      return unsampled(r);
    }
    if (s == null) {
      return null;
    }
    long n = Math.max(1, s.getNtasks());
    return in(r, s.getAveCpuMs() * n, s.getAveDiskRead() * n, s.getAveRssKb() * n, s.getAvePages() * n,
        s.getAveVmsizeKb() * n);
  }

  private static String node(StepUsage s, String n, Row r) {
    if (!n.isEmpty()) {
      return n;
    }
    String nodes = r.step().getNodes();
    return nodes.isEmpty() ? "" : org.corral.common.Hostlist.expand(nodes).get(0);
  }

  static String inMaxNode(Row r) {
    StepUsage s = usage(r);
    if (s == null) {
      return null;
    }
    String cpu = node(s, s.getMinCpuNode(), r);
    return "cpu=" + cpu + ",energy=" + cpu + ",fs/disk=" + node(s, s.getMaxDiskReadNode(), r)
        + ",mem=" + node(s, s.getMaxRssNode(), r) + ",pages=" + node(s, s.getMaxPagesNode(), r)
        + ",vmem=" + node(s, s.getMaxVmsizeNode(), r);
  }

  static String inMaxTask(Row r) {
    StepUsage s = usage(r);
    return s == null ? null : "cpu=" + s.getMinCpuTask() + ",fs/disk=" + s.getMaxDiskReadTask() + ",mem="
        + s.getMaxRssTask() + ",pages=" + s.getMaxPagesTask() + ",vmem=" + s.getMaxVmsizeTask();
  }

  private static String out(Row r, long bytes) {
    return "energy=0,fs/disk=" + r.ctx().units().format(bytes, Units.NONE, 1024);
  }

  static String outAve(Row r) {
    StepUsage s = usage(r);
    if (s == null) {
      return unsampled(r);
    }
    return s == null ? null : out(r, s.getAveDiskWrite());
  }

  static String outMax(Row r) {
    StepUsage s = usage(r);
    return s == null ? null : out(r, s.getMaxDiskWrite());
  }

  static String outTot(Row r) {
    StepUsage s = usage(r);
    if (s == null) {
      return unsampled(r);
    }
    return s == null ? null : out(r, s.getAveDiskWrite() * Math.max(1, s.getNtasks()));
  }

  static String outMaxNode(Row r) {
    StepUsage s = usage(r);
    if (s == null) {
      return null;
    }
    String n = node(s, s.getMaxDiskWriteNode(), r);
    return "energy=" + n + ",fs/disk=" + n;
  }

  static String outMaxTask(Row r) {
    StepUsage s = usage(r);
    return s == null ? null : "fs/disk=" + s.getMaxDiskWriteTask();
  }
}

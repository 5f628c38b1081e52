package org.corral.cli.sstat;

/** The TRESUsageIn... and TRESUsageOut... strings: "cpu=00:00:00,energy=0,fs/disk=8909,mem=1180K,pages=1,vmem=10700K". */
final class TresUsage {
  private TresUsage() {}

  static String in(long cpuMs, long diskBytes, long memKb, long pages, long vmKb, boolean noConvert) {
    return "cpu=" + UsageText.tresTime(cpuMs) + ",energy=0,fs/disk=" + UsageText.count(diskBytes, noConvert)
        + ",mem=" + UsageText.kib(memKb, noConvert) + ",pages=" + pages + ",vmem=" + UsageText.kib(vmKb, noConvert);
  }

  static String inNodes(String cpu, String disk, String mem, String pages, String vm) {
    return "cpu=" + cpu + ",energy=" + cpu + ",fs/disk=" + disk + ",mem=" + mem + ",pages=" + pages + ",vmem=" + vm;
  }

  /** Slurm writes the cpu entry's task id through the CPU-time formatter: task 0 is "00:00:00". */
  static String inTasks(int cpu, int disk, int mem, int pages, int vm) {
    return "cpu=" + UsageText.tresTime(cpu * 1000L) + ",fs/disk=" + disk + ",mem=" + mem + ",pages=" + pages
        + ",vmem=" + vm;
  }

  static String out(long diskBytes, boolean noConvert) {
    return "energy=0,fs/disk=" + UsageText.count(diskBytes, noConvert);
  }
}

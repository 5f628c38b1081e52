package org.corral.slurmd.usage;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.corral.protocol.msg.StepUsage;
import org.corral.slurmd.cgroup.CgroupUsage;

/**
 * Accumulates one step's samples on this node (taken every JobAcctGatherFrequency and whenever
 * sstat asks): per task the largest RSS and virtual size seen, their averages over the samples,
 * and the latest (cumulative) CPU time, page faults and I/O.
 */
public final class StepUsageTracker {
  private final int jobId;
  private final String stepId;
  private final Map<Integer, TaskStats> tasks = new TreeMap<>();

  public StepUsageTracker(int jobId, String stepId) {
    this.jobId = jobId;
    this.stepId = stepId;
  }

  public String stepId() {
    return stepId;
  }

  public synchronized void add(Collection<TaskSample> samples) {
    for (TaskSample s : samples) {
      tasks.computeIfAbsent(s.taskId(), id -> new TaskStats()).add(s);
    }
  }

  /**
   * The step's usage as sstat shows it. {@code cgroup} supplies the step's exact CPU times when
   * the backend counts them (processes that already ended included).
   */
  public synchronized StepUsage report(String node, CgroupUsage cgroup, long cpuFreqKhz, Collection<Long> pids) {
    StepUsage.Builder b = StepUsage.newBuilder().setJobId(jobId).setStep(stepId).setNodes(node)
        .setNtasks(Math.max(1, tasks.size())).setAveCpuFreqKhz(cpuFreqKhz).addAllPids(pids)
        .setOutOfMemory(cgroup.oomKills() > 0);
    if (cgroup.hasCpu()) {
      b.setUserCpuMs(cgroup.userCpuMillis()).setSysCpuMs(cgroup.systemCpuMillis());
    }
    if (tasks.isEmpty()) {
      return b.setMaxVmsizeNode(node).setMaxRssNode(node).setMaxPagesNode(node).setMinCpuNode(node)
          .setMaxDiskReadNode(node).setMaxDiskWriteNode(node).build();
    }
    if (tasks.size() == 1 && cgroup.hasCpu()) {
      tasks.values().iterator().next().atLeastCpu(cgroup.userCpuMillis() + cgroup.systemCpuMillis());
    }
    Map.Entry<Integer, TaskStats> maxVm = max(t -> t.maxVm);
    Map.Entry<Integer, TaskStats> maxRss = max(t -> t.maxRss);
    Map.Entry<Integer, TaskStats> maxPages = max(t -> t.pages);
    Map.Entry<Integer, TaskStats> minCpu = tasks.entrySet().stream()
        .min(Comparator.comparingLong(e -> e.getValue().cpu)).orElseThrow();
    Map.Entry<Integer, TaskStats> maxRead = max(t -> t.read);
    Map.Entry<Integer, TaskStats> maxWrite = max(t -> t.write);
    return b.setMaxVmsizeKb(maxVm.getValue().maxVm).setMaxVmsizeNode(node).setMaxVmsizeTask(maxVm.getKey())
        .setAveVmsizeKb(average(TaskStats::aveVm))
        .setMaxRssKb(maxRss.getValue().maxRss).setMaxRssNode(node).setMaxRssTask(maxRss.getKey())
        .setAveRssKb(average(TaskStats::aveRss))
        .setMaxPages(maxPages.getValue().pages).setMaxPagesNode(node).setMaxPagesTask(maxPages.getKey())
        .setAvePages(average(t -> t.pages))
        .setMinCpuMs(minCpu.getValue().cpu).setMinCpuNode(node).setMinCpuTask(minCpu.getKey())
        .setAveCpuMs(average(t -> t.cpu))
        .setMaxDiskRead(maxRead.getValue().read).setMaxDiskReadNode(node).setMaxDiskReadTask(maxRead.getKey())
        .setAveDiskRead(average(t -> t.read))
        .setMaxDiskWrite(maxWrite.getValue().write).setMaxDiskWriteNode(node)
        .setMaxDiskWriteTask(maxWrite.getKey()).setAveDiskWrite(average(t -> t.write))
        .build();
  }

  private Map.Entry<Integer, TaskStats> max(ToLongFunction<TaskStats> value) {
    return tasks.entrySet().stream().max(Comparator.<Map.Entry<Integer, TaskStats>>comparingLong(
        e -> value.applyAsLong(e.getValue())).thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
        .orElseThrow();
  }

  private long average(ToLongFunction<TaskStats> value) {
    return Math.round(tasks.values().stream().mapToLong(value).average().orElse(0));
  }

  private static final class TaskStats {
    long maxRss;
    long maxVm;
    long sumRss;
    long sumVm;
    long samples;
    long pages;
    long cpu;
    long read;
    long write;

    void add(TaskSample s) {
      maxRss = Math.max(maxRss, s.rssKb());
      maxVm = Math.max(maxVm, s.vmKb());
      sumRss += s.rssKb();
      sumVm += s.vmKb();
      samples++;
      // Cumulative counters: a process that ended takes its share along; never go backwards.
      pages = Math.max(pages, s.pages());
      cpu = Math.max(cpu, s.cpuMillis());
      read = Math.max(read, s.readBytes());
      write = Math.max(write, s.writeBytes());
    }

    void atLeastCpu(long millis) {
      cpu = Math.max(cpu, millis);
    }

    long aveRss() {
      return samples == 0 ? 0 : sumRss / samples;
    }

    long aveVm() {
      return samples == 0 ? 0 : sumVm / samples;
    }
  }
}

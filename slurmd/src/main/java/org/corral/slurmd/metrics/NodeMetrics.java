package org.corral.slurmd.metrics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.corral.protocol.http.HttpHandler;
import org.corral.protocol.http.HttpRequest;
import org.corral.protocol.http.HttpResponse;
import org.corral.protocol.metrics.MetricsText;
import org.corral.slurmd.cgroup.CgroupUsage;
import org.corral.slurmd.cgroup.JobScope;
import org.corral.slurmd.cgroup.ResourceLimiter;
import org.corral.slurmd.cgroup.StepScope;
import org.corral.slurmd.gres.NvidiaSmi;
import org.corral.slurmd.usage.ProcReader;
import org.corral.slurmd.usage.TaskSample;

/**
 * GET /metrics on slurmd's port (with the controller's MetricsType set): each running job's and
 * step's CPU time, memory (RSS, page cache, peak) and I/O, read from its cgroup (v1 or v2) and
 * its processes' /proc entries, and, on a node with NVIDIA GPUs, each GPU's utilisation and
 * memory under DCGM's field names, read through nvidia-smi as the GRES code reads the GPUs.
 * Labels: {@code job}, {@code step} ("batch", "extern", "0", ...), {@code gpu}; every sample
 * also carries {@code node}.
 */
public final class NodeMetrics implements HttpHandler {
  private final String node;
  private final Supplier<Set<Integer>> runningJobs;
  private final ResourceLimiter limiter;
  private final ProcReader proc;
  private final NvidiaSmi gpus;

  /** @param gpus reads the GPUs, or null on a node without */
  public NodeMetrics(String node, Supplier<Set<Integer>> runningJobs, ResourceLimiter limiter, ProcReader proc,
      NvidiaSmi gpus) {
    this.node = node;
    this.runningJobs = runningJobs;
    this.limiter = limiter;
    this.proc = proc;
    this.gpus = gpus;
  }

  private record StepReading(int job, String step, CgroupUsage usage, long cacheBytes, TaskSample tasks,
      int processes) {}

  @Override
  public HttpResponse handle(HttpRequest request) {
    if (!request.path().equals("/metrics") && !request.path().equals("/metrics/node")) {
      return HttpResponse.error(404, "no such endpoint: " + request.path() + " (see /metrics)");
    }
    boolean openMetrics = request.header("Accept").map(a -> a.contains("application/openmetrics-text"))
        .orElse(false);
    MetricsText out = new MetricsText(openMetrics);
    List<StepReading> steps = new ArrayList<>();
    List<long[]> limits = new ArrayList<>();
    for (int job : new TreeSet<>(runningJobs.get())) {
      Optional<JobScope> scope = limiter.findJob(job);
      if (scope.isEmpty()) {
        continue;
      }
      limits.add(new long[] {job, scope.get().memoryLimitBytes()});
      for (String stepId : scope.get().steps()) {
        try {
          StepScope s = scope.get().openStep(stepId);
          Set<Long> pids = s.pids();
          steps.add(new StepReading(job, stepId, s.usage(), s.cacheBytes(), proc.sample(0, pids), pids.size()));
        } catch (IOException | IllegalArgumentException e) {
          // the step ended meanwhile
        }
      }
    }
    out.gauge("corral_node_jobs", "Jobs with processes or a cgroup on this node", limits.size(), "node", node);
    for (long[] l : limits) {
      out.gauge("corral_job_memory_limit_bytes", "The job's memory limit on this node (0: none)", l[1],
          "node", node, "job", Long.toString(l[0]));
    }
    for (StepReading r : steps) {
      if (r.usage.hasCpu()) {
        out.counter("corral_step_cpu_seconds", "CPU time of the step's processes, by mode",
            r.usage.userCpuMillis() / 1000.0, labels(r, "mode", "user"));
        out.counter("corral_step_cpu_seconds", "CPU time of the step's processes, by mode",
            r.usage.systemCpuMillis() / 1000.0, labels(r, "mode", "system"));
      }
    }
    steps.forEach(r -> out.gauge("corral_step_memory_rss_bytes", "Resident memory of the step's processes",
        r.tasks.rssKb() * 1024.0, labels(r)));
    steps.stream().filter(r -> r.cacheBytes >= 0).forEach(r -> out.gauge("corral_step_memory_cache_bytes",
        "Page cache charged to the step's cgroup", r.cacheBytes, labels(r)));
    steps.stream().filter(r -> r.usage.memoryPeakBytes() >= 0).forEach(r -> out.gauge(
        "corral_step_memory_peak_bytes", "Highest memory use of the step's cgroup", r.usage.memoryPeakBytes(),
        labels(r)));
    steps.forEach(r -> out.counter("corral_step_io_read_bytes", "Bytes the step's processes read from storage",
        r.tasks.readBytes(), labels(r)));
    steps.forEach(r -> out.counter("corral_step_io_write_bytes", "Bytes the step's processes wrote to storage",
        r.tasks.writeBytes(), labels(r)));
    steps.forEach(r -> out.gauge("corral_step_processes", "Processes in the step", r.processes, labels(r)));
    if (gpus != null) {
      List<NvidiaSmi.GpuReading> readings = gpus.readings();
      readings.forEach(g -> out.gauge("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %)", g.utilPercent(), gpu(g)));
      readings.forEach(g -> out.gauge("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB)", g.memUsedMib(),
          gpu(g)));
      readings.forEach(g -> out.gauge("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB)",
          g.memTotalMib() - g.memUsedMib(), gpu(g)));
      readings.forEach(g -> out.gauge("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W)", g.powerWatts(), gpu(g)));
      readings.forEach(g -> out.gauge("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C)", g.temperatureC(), gpu(g)));
    }
    return HttpResponse.ok(out.contentType(), out.finish());
  }

  private String[] labels(StepReading r, String... more) {
    String[] base = {"node", node, "job", Integer.toString(r.job), "step", r.step};
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  private String[] gpu(NvidiaSmi.GpuReading g) {
    return new String[] {"node", node, "gpu", Integer.toString(g.index())};
  }
}

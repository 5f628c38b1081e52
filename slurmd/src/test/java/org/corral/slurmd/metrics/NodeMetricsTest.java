package org.corral.slurmd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.corral.protocol.http.HttpRequest;
import org.corral.protocol.http.HttpResponse;
import org.corral.slurmd.cgroup.CgroupUsage;
import org.corral.slurmd.cgroup.JobScope;
import org.corral.slurmd.cgroup.ResourceLimiter;
import org.corral.slurmd.cgroup.StepScope;
import org.corral.slurmd.gres.NvidiaSmi;
import org.corral.slurmd.usage.ProcReader;
import org.junit.jupiter.api.Test;

/**
 * The node's metrics: a running job's step read from its scope (here one whose process is this
 * test's JVM, so RSS and I/O come from the real /proc) and GPUs from nvidia-smi's CSV.
 */
class NodeMetricsTest {
  private static final long SELF = ProcessHandle.current().pid();

  /** A scope as a cgroup backend gives it, its counters fixed. */
  private static final StepScope STEP = new StepScope() {
    public String stepId() {
      return "batch";
    }

    public List<Path> procsFiles() {
      return List.of();
    }

    public Set<Long> pids() {
      return Set.of(SELF);
    }

    public CgroupUsage usage() {
      return new CgroupUsage(1500, 250, 64L << 20, 0);
    }

    @Override
    public long cacheBytes() {
      return 4096;
    }
  };

  private static final JobScope JOB = new JobScope() {
    public int jobId() {
      return 42;
    }

    public StepScope openStep(String stepId) {
      return STEP;
    }

    public List<String> steps() {
      return List.of("batch");
    }

    public long oomKills() {
      return 0;
    }

    public BitSet cpus() {
      return new BitSet();
    }

    public long memoryLimitBytes() {
      return 128L << 20;
    }

    public void remove() {}
  };

  private static final ResourceLimiter LIMITER = new ResourceLimiter() {
    public String name() {
      return "cgroup/v2";
    }

    public boolean confines() {
      return true;
    }

    public JobScope limitJob(int jobId, int uid, BitSet cpus, long memoryBytes) {
      throw new UnsupportedOperationException();
    }

    public Optional<JobScope> findJob(int jobId) {
      return jobId == 42 ? Optional.of(JOB) : Optional.empty();
    }
  };

  @Test
  void stepsAndGpusAsMetrics() {
    NvidiaSmi smi = new NvidiaSmi(args -> "0, 87, 30000, 81559, 350.5, 61\n1, [N/A], 0, 81559, 70.1, 40\n", () -> "");
    NodeMetrics m = new NodeMetrics("n1", () -> Set.of(42, 43), LIMITER, ProcReader.system(), smi);
    HttpResponse r = m.handle(new HttpRequest("GET", "/metrics", "", Map.of(), "/127.0.0.1:1"));
    String text = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(r.status()).isEqualTo(200);
    assertThat(text).contains("corral_node_jobs{node=\"n1\"} 1\n",
        "corral_job_memory_limit_bytes{node=\"n1\",job=\"42\"} 134217728\n",
        "corral_step_cpu_seconds_total{node=\"n1\",job=\"42\",step=\"batch\",mode=\"user\"} 1.5\n",
        "corral_step_memory_cache_bytes{node=\"n1\",job=\"42\",step=\"batch\"} 4096\n",
        "corral_step_memory_peak_bytes{node=\"n1\",job=\"42\",step=\"batch\"} 67108864\n",
        "corral_step_processes{node=\"n1\",job=\"42\",step=\"batch\"} 1\n",
        "DCGM_FI_DEV_GPU_UTIL{node=\"n1\",gpu=\"0\"} 87\n", "DCGM_FI_DEV_GPU_UTIL{node=\"n1\",gpu=\"1\"} NaN\n",
        "DCGM_FI_DEV_FB_FREE{node=\"n1\",gpu=\"0\"} 51559\n");
    long rss = Long.parseLong(text.lines().filter(l -> l.startsWith("corral_step_memory_rss_bytes{")).findFirst()
        .orElseThrow().replaceAll(".* ", ""));
    assertThat(rss).as("this JVM's resident memory").isGreaterThan(10L << 20);
    assertThat(m.handle(new HttpRequest("GET", "/nothing", "", Map.of(), "")).status()).isEqualTo(404);
  }
}

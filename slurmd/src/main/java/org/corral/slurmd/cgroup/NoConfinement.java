package org.corral.slurmd.cgroup;

import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The backend for hosts where neither cgroup v1 nor v2 can be used: jobs run unconfined and
 * usage comes from /proc alone. Chosen only after the real backends failed, with a log line.
 */
public final class NoConfinement implements ResourceLimiter {
  @Override
  public String name() {
    return "none";
  }

  @Override
  public boolean confines() {
    return false;
  }

  @Override
  public JobScope limitJob(int jobId, int uid, BitSet cpus, long memoryBytes) {
    return new Job(jobId);
  }

  @Override
  public Optional<JobScope> findJob(int jobId) {
    return Optional.of(new Job(jobId));
  }

  private record Job(int jobId) implements JobScope {
    @Override
    public StepScope openStep(String stepId) {
      return new Step(stepId);
    }

    @Override
    public List<String> steps() {
      return List.of();
    }

    @Override
    public long oomKills() {
      return 0;
    }

    @Override
    public BitSet cpus() {
      return new BitSet();
    }

    @Override
    public long memoryLimitBytes() {
      return 0;
    }

    @Override
    public void remove() {
      // nothing was created
    }
  }

  private record Step(String stepId) implements StepScope {
    @Override
    public List<java.nio.file.Path> procsFiles() {
      return List.of();
    }

    @Override
    public Set<Long> pids() {
      return Set.of();
    }

    @Override
    public CgroupUsage usage() {
      return CgroupUsage.UNKNOWN;
    }
  }
}

package org.corral.slurmd.cgroup;

import java.io.IOException;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Confines jobs and steps to the CPUs and memory they were given and measures what they use.
 * One implementation per kernel interface: {@link CgroupV1}, {@link CgroupV2}, and
 * {@link NoConfinement} where neither works. See the package documentation for the life of a
 * job's scope.
 */
public interface ResourceLimiter {
  /** Slurm's name for the backend, as cgroup.conf's CgroupPlugin spells it: cgroup/v1, cgroup/v2; or "none". */
  String name();

  /** False for the backend that confines nothing. */
  boolean confines();

  /**
   * Creates (or finds again: repeated calls are harmless) the job's scope on this node and sets
   * its limits. {@code cpus} are host CPU ids; empty = not constrained. {@code memoryBytes} is
   * what the job was allocated on this node (0 = nothing asked: the node's memory); the limit set
   * follows cgroup.conf (AllowedRAMSpace, MinRAMSpace, MaxRAMPercent, swap settings).
   */
  JobScope limitJob(int jobId, int uid, BitSet cpus, long memoryBytes) throws IOException;

  /** The scope of a job created earlier, maybe by an earlier slurmd on this node. */
  Optional<JobScope> findJob(int jobId);

  /**
   * At daemon shutdown: removes the users' and the node's directories that no job scope is left
   * in (jobs that outlive the daemon keep theirs, for the next daemon to find).
   */
  default void shutdown() {}

  /**
   * At daemon start: removes the scopes of jobs other than {@code keep} that hold no process,
   * left by an earlier daemon (an allocation's scope goes KillWait after the job's end, which a
   * daemon stopped meanwhile never got to). Returns the jobs whose scopes were removed.
   */
  default List<Integer> removeIdleJobs(Set<Integer> keep) {
    return List.of();
  }

  /** Opens (creates if needed) a step's scope inside an existing job scope. */
  default StepScope openStep(int jobId, String stepId) throws IOException {
    return findJob(jobId).orElseThrow(() -> new IOException("job " + jobId + " has no scope on this node"))
        .openStep(stepId);
  }
}

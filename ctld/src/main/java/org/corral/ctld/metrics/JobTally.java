package org.corral.ctld.metrics;

import org.corral.protocol.metrics.MetricsText;
import org.corral.ctld.state.JobStates;
import java.util.Map;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;

/**
 * Counts of a group of jobs (all, one partition's, one user's or one account's) by the states
 * Slurm 25.11's job metrics name, and the resources the group holds. States Corral never puts
 * a job in (configuring, expediting, resizing, ...) stay 0 and are still written, as Slurm does.
 */
final class JobTally {
  /** The counts, in the order written; name (after "jobs_") and help as Slurm's endpoint has them. */
  enum Count {
    BOOTFAIL("bootfail", "Number of jobs in BootFail state"),
    CANCELLED("cancelled", "Number of jobs in Cancelled state"),
    COMPLETED("completed", "Number of jobs in Completed state"),
    COMPLETING("completing", "Number of jobs in Completing state"),
    CONFIGURING("configuring", "Number of jobs in Configuring state"),
    CPUS_ALLOC("cpus_alloc", "Total number of Cpus allocated by jobs"),
    DEADLINE("deadline", "Number of jobs in Deadline state"),
    EXPEDITING("expediting", "Number of jobs in Expediting state"),
    FAILED("failed", "Number of jobs in Failed state"),
    FED_REQUEUED("fed_requeued", "Number of jobs requeued in a federation"),
    FINISHED("finished", "Number of finished jobs"),
    GPUS_ALLOC("gpus_alloc", "Total number of GPUs allocated by jobs"),
    HOLD("hold", "Number of jobs in Hold state"),
    JOBS("", "Total number of jobs"),
    MEMORY_ALLOC("memory_alloc", "Total memory bytes allocated by jobs"),
    NODE_FAILED("node_failed", "Number of jobs in Node Failed state"),
    NODES_ALLOC("nodes_alloc", "Total number of nodes allocated by jobs"),
    OUT_OF_MEMORY("outofmemory", "Number of jobs in Out of Memory state"),
    PENDING("pending", "Number of jobs in Pending state"),
    POWERUP_NODE("powerup_node", "Number of jobs in PowerUp Node state"),
    PREEMPTED("preempted", "Number of jobs in Preempted state"),
    REQUEUED("requeued", "Number of jobs in Requeued state"),
    RESIZING("resizing", "Number of jobs in Resizing state"),
    REVOKED("revoked", "Number of jobs in Revoked state"),
    RUNNING("running", "Number of jobs in Running state"),
    SIGNALING("signaling", "Number of jobs being signaled"),
    STAGEOUT("stageout", "Number of jobs in StageOut state"),
    STARTED("started", "Number of started jobs"),
    SUSPENDED("suspended", "Number of jobs in Suspended state"),
    TIMEOUT("timeout", "Number of jobs in Timeout state");

    final String suffix;
    final String help;

    Count(String suffix, String help) {
      this.suffix = suffix;
      this.help = help;
    }

    /** The metric's name: {@code slurm_<prefix>jobs[_<suffix>]}. */
    String metric(String prefix) {
      return "slurm_" + prefix + "jobs" + (suffix.isEmpty() ? "" : "_" + suffix);
    }
  }

  private final long[] counts = new long[Count.values().length];

  long get(Count c) {
    return counts[c.ordinal()];
  }

  private void add(Count c, long n) {
    counts[c.ordinal()] += n;
  }

  void add(JobInfo j) {
    add(Count.JOBS, 1);
    switch (j.getState()) {
      case PENDING -> {
        add(Count.PENDING, 1);
        if (j.getPriority() == 0) {
          add(Count.HOLD, 1);
        }
      }
      case RUNNING -> add(Count.RUNNING, 1);
      case SUSPENDED -> add(Count.SUSPENDED, 1);
      case COMPLETED -> add(Count.COMPLETED, 1);
      case CANCELLED -> add(Count.CANCELLED, 1);
      case FAILED -> add(Count.FAILED, 1);
      case TIMEOUT -> add(Count.TIMEOUT, 1);
      case NODE_FAIL -> add(Count.NODE_FAILED, 1);
      case PREEMPTED -> add(Count.PREEMPTED, 1);
      case BOOT_FAIL -> add(Count.BOOTFAIL, 1);
      case DEADLINE -> add(Count.DEADLINE, 1);
      case OUT_OF_MEMORY -> add(Count.OUT_OF_MEMORY, 1);
      case SPECIAL_EXIT -> add(Count.HOLD, 1); // requeued and held
      default -> { }
    }
    if (j.getCompleting()) {
      add(Count.COMPLETING, 1);
    }
    if (JobStates.isFinished(j)) {
      add(Count.FINISHED, 1);
    }
    if (j.getStartTime() > 0 && j.getState() != JobState.PENDING) {
      add(Count.STARTED, 1);
    }
    if (JobStates.holdsResources(j)) {
      add(Count.CPUS_ALLOC, j.getNumCpus());
      add(Count.NODES_ALLOC, j.getAllocationCount());
      for (NodeAllocation a : j.getAllocationList()) {
        add(Count.MEMORY_ALLOC, a.getMemMb() << 20);
        add(Count.GPUS_ALLOC, NodeTally.gpus(a.getGresList()));
      }
    }
  }

  /** Writes every count as {@code slurm_<prefix>jobs_<suffix>} without labels. */
  void write(MetricsText out, String prefix) {
    for (Count c : Count.values()) {
      out.gauge(c.metric(prefix), c.help, get(c));
    }
  }

  /**
   * Writes every count of each group, one family after the other (a family's samples must stay
   * together), labelled {@code label="<group>"}.
   */
  static void write(MetricsText out, String prefix, String label, Map<String, JobTally> groups) {
    for (Count c : Count.values()) {
      groups.forEach((name, t) -> out.gauge(c.metric(prefix), c.help, t.get(c), label, name));
    }
  }
}

package org.corral.cli.sacct;

import java.time.ZoneId;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepUsage;

/**
 * One line of sacct's output: a job, or one of its steps ({@code step} set). Knows the facts
 * several fields share (elapsed time, CPU count) the way slurmdbd and sacct compute them.
 */
record Row(AcctJob job, AcctStep step, Context ctx) {

  /** What values depend on besides the record: the clock, the zone, unit conversion. */
  record Context(long now, ZoneId zone, Units units) {}

  boolean isStep() {
    return step != null;
  }

  boolean started() {
    return job.getStartTime() > 0 && job.getState() != JobState.PENDING;
  }

  /** The job id as sacct prints it: 12, 12_3, the pending array's 12_[4-9%2]; steps add .batch, .0. */
  String jobId() {
    String id;
    if (!job.getArrayTasks().isEmpty()) {
      id = job.getArrayJobId() + "_[" + job.getArrayTasks() + "]";
    } else if (job.getArrayJobId() != 0) {
      id = job.getArrayJobId() + "_" + job.getArrayTaskId();
    } else {
      id = Integer.toUnsignedString(job.getJobId());
    }
    return isStep() ? id + "." + StepIds.name(step.getStepId()) : id;
  }

  String jobIdRaw() {
    String id = Integer.toUnsignedString(job.getJobId());
    return isStep() ? id + "." + StepIds.name(step.getStepId()) : id;
  }

  /** Seconds run: end (or now) minus start, less time suspended; 0 before the start. */
  long elapsed() {
    long start = isStep() ? step.getStartTime() : (started() ? job.getStartTime() : 0);
    long end = isStep() ? step.getEndTime() : job.getEndTime();
    if (start <= 0) {
      return 0;
    }
    long e = (end > 0 ? end : ctx.now()) - start - (isStep() ? 0 : job.getSuspendedS());
    return Math.max(0, e);
  }

  /** Allocated CPUs: a pending job's requested ones, 0 for a job that ended without starting. */
  long cpus() {
    if (isStep()) {
      return step.getNumCpus() > 0 ? step.getNumCpus() : job.getNumCpus();
    }
    if (job.getState() == JobState.PENDING) {
      return Math.max(job.getNumCpus(), job.getReqCpus());
    }
    return started() ? job.getNumCpus() : 0;
  }

  long nodes() {
    if (isStep()) {
      return step.getNumNodes();
    }
    return started() ? job.getNumNodes() : 0;
  }

  /** The step's usage, or null for a job line or a step without one. */
  StepUsage usage() {
    return isStep() && step.hasUsage() ? step.getUsage() : null;
  }

  /**
   * The step's usage where the nodes sampled it (memory seen); Slurm leaves the Max/Ave fields
   * blank for a step that ended before its first sample.
   */
  StepUsage sampled() {
    StepUsage u = usage();
    return u != null && (u.getMaxRssKb() > 0 || u.getMaxVmsizeKb() > 0) ? u : null;
  }

  /** The state's name, "CANCELLED by UID" when someone cancelled it. */
  String state() {
    JobState s = isStep() ? step.getState() : job.getState();
    boolean cancelled = isStep() ? step.getCancelled() : job.getCancelled();
    int by = isStep() ? step.getCancelledBy() : job.getCancelledBy();
    String name = org.corral.cli.format.JobStates.name(s);
    return s == JobState.CANCELLED && cancelled ? name + " by " + Integer.toUnsignedString(by) : name;
  }
}

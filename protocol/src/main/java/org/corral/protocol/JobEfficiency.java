package org.corral.protocol;

import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.StepUsage;

/**
 * What seff computes of a job from its accounting record: its cores, nodes, wall-clock time (less
 * suspensions), CPU time of all its steps, the largest step's memory (the sum of its tasks'
 * peaks, KiB) with that step's largest and average task peak, and the memory allocated (KiB).
 * One computation for seff, its waste report and the dashboard's job page.
 */
public record JobEfficiency(long ncpus, long nnodes, long walltime, long cput, double memKb, double maxMem, double aveMem,
    long allocKb) {
  public static JobEfficiency of(AcctJob job, long now) {
    long ncpus = job.getNumCpus() == 0 ? 1 : job.getNumCpus();
    long nnodes = job.getNumNodes() == 0 ? 1 : job.getNumNodes();
    long walltime = job.getStartTime() == 0 ? 0
        : (job.getEndTime() > 0 ? job.getEndTime() : now) - job.getStartTime() - job.getSuspendedS();
    long cpuSec = 0;
    long cpuUsec = 0;
    double memKb = 0;
    double maxMem = 0;
    double aveMem = 0;
    for (AcctStep s : job.getStepsList()) {
      StepUsage u = s.getUsage();
      cpuSec += u.getUserCpuMs() / 1000 + u.getSysCpuMs() / 1000;
      cpuUsec += (u.getUserCpuMs() % 1000 + u.getSysCpuMs() % 1000) * 1000;
      // the sum of the tasks' peaks: their average peak times their number
      long tasks = Math.max(1, u.getNtasks());
      double total = u.getAveRssKb() > 0 ? (double) u.getAveRssKb() * tasks : u.getMaxRssKb();
      if (memKb < total) {
        memKb = total;
        maxMem = u.getMaxRssKb();
        aveMem = u.getAveRssKb();
      }
    }
    long cput = cpuSec + (long) (cpuUsec / 1_000_000.0 + 0.5);
    return new JobEfficiency(ncpus, nnodes, walltime, cput, memKb, maxMem, aveMem, job.getAllocMemMb() * 1024);
  }

  public long coreWall() {
    return walltime * ncpus;
  }

  /** CPU time over cores × wall-clock time, in percent (0 when the job did not run). */
  public double cpuPercent() {
    return coreWall() != 0 ? (double) cput / coreWall() * 100 : 0.0;
  }

  /** Memory used over memory allocated, in percent (0 when none was allocated). */
  public double memPercent() {
    return allocKb != 0 ? memKb / allocKb * 100 : 0.0;
  }
}

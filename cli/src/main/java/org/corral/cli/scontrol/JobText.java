package org.corral.cli.scontrol;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.corral.cli.format.Dependencies;
import org.corral.cli.format.JobStates;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.MemorySize;
import org.corral.protocol.Billing;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/** A job as {@code scontrol show job} prints it. Fields Corral does not track print Slurm's defaults. */
final class JobText {
  private JobText() {}

  /** " ArrayJobId=33 ArrayTaskId=2-9%2 ArrayTaskThrottle=2" for an array's members, else "". */
  private static String array(JobInfo j) {
    if (j.getArrayJobId() == 0) {
      return "";
    }
    String tasks = !j.getArrayTasks().isEmpty() ? j.getArrayTasks() : u(j.getArrayTaskId());
    return " ArrayJobId=" + u(j.getArrayJobId()) + " ArrayTaskId=" + tasks
        + (j.getArrayThrottle() > 0 ? " ArrayTaskThrottle=" + j.getArrayThrottle() : "");
  }

  static Entry of(JobInfo j, long now, ZoneId zone, boolean details) {
    List<String> l = new ArrayList<>();
    l.add("JobId=" + u(j.getJobId()) + array(j) + " JobName=" + j.getName());
    l.add("UserId=" + j.getUserName() + "(" + u(j.getUserId()) + ") GroupId=" + j.getGroupName()
        + "(" + u(j.getGroupId()) + ") MCS_label=N/A");
    l.add("Priority=" + u(j.getPriority()) + " Nice=" + j.getNice() + " Account="
        + orNull(j.getAccount()) + " QOS=" + orNull(j.getQos()) + (j.getWckey().isEmpty() ? "" : " WCKey=" + j.getWckey()));
    l.add("JobState=" + JobStates.name(j) + " Reason=" + j.getStateReason().replace(' ', '_')
        + " Dependency=" + orNull(Dependencies.shown(j)));
    l.add("Requeue=" + (j.getRequeue() ? 1 : 0) + " Restarts=" + u(j.getRestartCount())
        + " BatchFlag=" + (j.getInteractive() ? 0 : 1) + " Reboot=0 ExitCode=" + exitCode(j.getExitStatus()));
    if (details) {
      l.add("DerivedExitCode=0:0");
    }
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    l.add("RunTime=" + SlurmTimes.hms(runTime(j, now)) + " TimeLimit="
        + SlurmTimes.limitHms(limit) + " TimeMin=N/A");
    l.add("SubmitTime=" + time(j.getSubmitTime(), zone) + " EligibleTime="
        + time(neverEligible(j) || splitOff(j) ? 0 : j.getEligibleTime(), zone));
    l.add("AccrueTime=" + time(neverEligible(j) ? 0 : accrue(j), zone));
    l.add("StartTime=" + time(j.getStartTime(), zone) + " EndTime=" + time(end(j, limit), zone)
        + " Deadline=" + (j.getDeadline() > 0 ? time(j.getDeadline(), zone) : "N/A"));
    l.add("SuspendTime=" + SlurmTimes.iso(j.getSuspendTime(), zone, "None")
        + " SecsPreSuspend=" + org.corral.cli.format.RunTime.secsPreSuspend(j) + " LastSchedEval="
        + time(j.getLastSchedEval() > 0 ? j.getLastSchedEval() : j.getSubmitTime(), zone)
        + " Scheduler=Main");
    l.add("Partition=" + j.getPartition() + " AllocNode:Sid=" + j.getSubmitHost() + ":" + j.getAllocSid());
    l.add("ReqNodeList=" + orNull(j.getReqNodes()) + " ExcNodeList=" + orNull(j.getExcNodes()));
    l.add("NodeList=" + j.getNodes()
        + (j.getSchedNodes().isEmpty() ? "" : " SchedNodeList=" + j.getSchedNodes()));
    if (!j.getBatchHost().isEmpty()) {
      l.add("BatchHost=" + j.getBatchHost());
    }
    l.add("NumNodes=" + numNodes(j) + " NumCPUs=" + u(j.getNumCpus()) + " NumTasks="
        + (j.getNumTasks() == 0 || cancelledUnstarted(j) ? "N/A" : u(j.getNumTasks())) + " CPUs/Task="
        + Math.max(1, j.getCpusPerTask()) + " ReqB:S:C:T=0:0:*:*");
    l.add("TRES=cpu=" + u(j.getNumCpus()) + ",mem=" + MemorySize.format(totalMem(j)) + ",node="
        + u(j.getNumNodes()) + ",billing=" + Billing.shown(j));
    l.add("Socks/Node=* NtasksPerN:B:S:C=" + u(j.getNtasksPerNode()) + ":0:*:* CoreSpec=*");
    String jobGres = org.corral.cli.format.GresText.job(j);
    if (details && j.getAllocationCount() > 0) { // kept after the job ends, as Slurm keeps its job_resources
      l.add("JOB_GRES=" + (jobGres.isEmpty() ? "(null)" : jobGres));
      for (org.corral.protocol.msg.NodeAllocation a : j.getAllocationList()) {
        l.add("  Nodes=" + a.getNode() + " CPU_IDs=" + cpuIds(a) + " Mem=" + a.getMemMb() + " GRES="
            + org.corral.cli.format.GresText.onNode(a));
      }
    }
    l.add("MinCPUsNode=" + Math.max(1, j.getCpusPerTask()) + " "
        + (j.getMemPerCpuMb() > 0 ? "MinMemoryCPU=" + MemorySize.format(j.getMemPerCpuMb())
            : "MinMemoryNode=" + MemorySize.format(j.getMemPerNodeMb()))
        + " MinTmpDiskNode=0");
    l.add("Features=" + orNull(j.getFeatures()) + " DelayBoot=00:00:00");
    if (!j.getReservation().isEmpty()) {
      l.add("Reservation=" + j.getReservation());
    }
    l.add("OverSubscribe=" + org.corral.cli.format.OverSubscribeWord.of(j)
        + " Contiguous=" + (j.getContiguous() ? 1 : 0) + " Licenses=" + orNull(j.getLicenses()) + " Network=(null)");
    l.add("Command=" + orNull(j.getCommand()));
    l.add("WorkDir=" + j.getWorkDir());
    if (!j.getComment().isEmpty()) {
      l.add("Comment=" + j.getComment());
    }
    if (!j.getInteractive()) { // an allocation (srun, salloc) has no files of its own
      l.add("StdErr=" + j.getStdErr());
      l.add("StdIn=" + j.getStdIn());
      l.add("StdOut=" + j.getStdOut());
    }
    l.add("Power=");
    if (!j.getGresFlags().isEmpty()) { // as the reference printed it for both flags
      l.add("GresEnforceBind=" + (j.getGresFlags().equals("enforce-binding") ? "Yes" : "No"));
    }
    addIfSet(l, "CpusPerTres=", j.getCpusPerTres());
    addIfSet(l, "MemPerTres=", j.getMemPerTres());
    addIfSet(l, "TresPerJob=", j.getTresPerJob());
    addIfSet(l, "TresPerNode=", j.getTresPerNode());
    addIfSet(l, "TresPerTask=", j.getTresPerTask());
    l.add("");
    return new Entry(l);
  }

  private static void addIfSet(List<String> l, String key, String value) {
    if (!value.isEmpty()) {
      l.add(key + value);
    }
  }

  /**
   * The CPU ids slurmd chooses are not known to the controller: the node's first ones, as
   * Slurm's count would show them on an empty node.
   */
  /** The CPUs the controller gave the job there; for records from before it chose them, the first ones. */
  private static String cpuIds(org.corral.protocol.msg.NodeAllocation a) {
    if (!a.getCpuIds().isEmpty()) {
      return a.getCpuIds();
    }
    return a.getCpus() <= 1 ? "0" : "0-" + (a.getCpus() - 1);
  }

  private static String u(int v) {
    return Integer.toUnsignedString(v);
  }

  private static String orNull(String s) {
    return s.isEmpty() ? "(null)" : s;
  }

  private static String time(long epoch, ZoneId zone) {
    return SlurmTimes.iso(epoch, zone, "Unknown");
  }

  /** wait(2) status as exit code and signal. */
  private static String exitCode(int status) {
    return ((status >> 8) & 0xff) + ":" + (status & 0x7f);
  }

  private static long runTime(JobInfo j, long now) {
    return org.corral.cli.format.RunTime.seconds(j, now);
  }

  /**
   * Slurm sets a job's eligible time once its scheduler finds it independent: a job held at
   * submission (user hold) or waiting for a dependency has none yet (Unknown), nor any accrue
   * time; one cancelled so keeps none.
   */
  private static boolean neverEligible(JobInfo j) {
    boolean waiting = j.getState() == JobState.PENDING || cancelledUnstarted(j);
    return waiting && switch (j.getStateReason()) {
      case "JobHeldUser", "Dependency" -> true;
      default -> false;
    };
  }

  /**
   * An array's record of pending tasks once some started: Slurm made it anew when it split the
   * started task off, and sets its eligible time when its scheduler next looks at it, which it
   * does not while the array's throttle holds it.
   */
  private static boolean splitOff(JobInfo j) {
    return j.getState() == JobState.PENDING && !j.getArrayTasks().isEmpty()
        && "JobArrayTaskLimit".equals(j.getStateReason());
  }

  /** Cancelled before it ever started: Slurm never worked out its tasks (NumTasks=N/A). */
  private static boolean cancelledUnstarted(JobInfo j) {
    return j.getState() == JobState.CANCELLED && j.getBatchHost().isEmpty() && j.getNodes().isEmpty();
  }

  // Slurm starts counting a job's queue time once it is eligible; a job cancelled before it
  // ever ran (no batch host) never accrued any.
  // An allocation granted at once (srun, salloc) never waited in the queue either.
  private static long accrue(JobInfo j) {
    boolean neverRan = j.getState() == JobState.CANCELLED && j.getBatchHost().isEmpty();
    boolean grantedAtOnce = j.getInteractive() && j.getStartTime() > 0 && j.getStartTime() == j.getSubmitTime();
    return neverRan || grantedAtOnce ? 0 : j.getEligibleTime();
  }

  private static long end(JobInfo j, long limit) {
    if (j.getEndTime() > 0) {
      return j.getEndTime();
    }
    if (j.getStartTime() > 0 && limit != SlurmTimes.INFINITE) {
      return j.getStartTime() + limit * 60;
    }
    return 0;
  }

  private static String numNodes(JobInfo j) {
    if (j.getState() == JobState.PENDING && j.getMaxNodes() > 0) {
      return u(j.getMinNodes()) + "-" + u(j.getMaxNodes());
    }
    return u(j.getNumNodes());
  }

  private static long totalMem(JobInfo j) {
    return j.getMemPerCpuMb() > 0 ? j.getMemPerCpuMb() * Integer.toUnsignedLong(j.getNumCpus())
        : j.getMemPerNodeMb() * Integer.toUnsignedLong(j.getNumNodes());
  }
}

package org.corral.cli.sacct;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.Hostlist;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.StepUsage;

/**
 * A field sacct can print (--helpformat lists them in this order), with Slurm 22.05's width
 * (negative: left-justified) and how it prints: text (cut with '+'), a number or a duration
 * (never cut), a date (cut silently). A value of null is Slurm's unset value: blank.
 */
record SacctField(String name, int width, Kind kind, Function<Row, String> value) {

  enum Kind { TEXT, NUMBER, DATE }

  private static final long INFINITE = 0xFFFFFFFFL;
  private static final long NO_BILLING = -1;

  static final List<SacctField> ALL = List.of(
      text("Account", 10, r -> r.job().getAccount()),
      text("AdminComment", 15, r -> null),
      num("AllocCPUS", 10, r -> Long.toString(r.cpus())),
      text("AllocNodes", 10, r -> r.ctx().units().format(r.nodes(), Units.NONE, 1024)),
      text("AllocTRES", 10, r -> allocTres(r)),
      num("AssocID", 7, r -> r.isStep() ? null : "0"),
      text("AveCPU", 10, r -> cpu(r, StepUsage::getAveCpuMs)),
      text("AveCPUFreq", 10, r -> r.sampled() == null ? (r.isStep() ? "0" : "")
          : r.ctx().units().formatInexact(r.sampled().getAveCpuFreqKhz(), Units.NONE, 1000)),
      text("AveDiskRead", 14, r -> disk(r, StepUsage::getAveDiskRead)),
      text("AveDiskWrite", 14, r -> disk(r, StepUsage::getAveDiskWrite)),
      text("AvePages", 10, r -> count(r, StepUsage::getAvePages)),
      text("AveRSS", 10, r -> bytes(r, StepUsage::getAveRssKb)),
      text("AveVMSize", 10, r -> bytes(r, StepUsage::getAveVmsizeKb)),
      text("BlockID", 16, r -> null),
      text("Cluster", 10, r -> r.job().getCluster()),
      text("Comment", 14, r -> r.isStep() || r.job().getComment().isEmpty() ? null : r.job().getComment()),
      text("Constraints", 19, r -> r.isStep() ? null : r.job().getConstraints()),
      text("ConsumedEnergy", 14, r -> r.isStep() || hasSrunSteps(r.job()) ? "0" : ""),
      num("ConsumedEnergyRaw", 17, r -> "0"),
      text("Container", 19, r -> null),
      num("CPUTime", 10, r -> SlurmTimes.hms(r.elapsed() * r.cpus())),
      num("CPUTimeRAW", 10, r -> Long.toString(r.elapsed() * r.cpus())),
      num("DBIndex", -10, r -> Integer.toUnsignedString(r.job().getJobId())),
      text("DerivedExitCode", 15, r -> r.isStep() ? "" : exitCode(r.job().getDerivedExitStatus(), false)),
      num("Elapsed", 10, r -> SlurmTimes.hms(r.elapsed())),
      num("ElapsedRaw", 10, r -> Long.toString(r.elapsed())),
      date("Eligible", 19, r -> r.isStep() ? r.step().getStartTime() : eligible(r.job())),
      date("End", 19, r -> r.isStep() ? r.step().getEndTime() : r.job().getEndTime()),
      text("ExitCode", 8, r -> exitCode(r.isStep() ? r.step().getExitStatus() : r.job().getExitStatus(), true)),
      text("Flags", 19, r -> r.isStep() || !r.started() ? null : "SchedMain,StartRecieved"),
      num("GID", 6, r -> r.isStep() ? null : Integer.toUnsignedString(r.job().getGroupId())),
      text("Group", 9, r -> r.isStep() ? null : r.job().getGroupName()),
      text("JobID", -12, Row::jobId),
      text("JobIDRaw", -12, Row::jobIdRaw),
      text("JobName", 10, r -> r.isStep() ? r.step().getName() : r.job().getName()),
      text("Layout", 9, SacctField::layout),
      text("MaxDiskRead", 12, r -> disk(r, StepUsage::getMaxDiskRead)),
      text("MaxDiskReadNode", 15, r -> node(r, StepUsage::getMaxDiskReadNode)),
      num("MaxDiskReadTask", 15, r -> task(r, StepUsage::getMaxDiskReadTask)),
      text("MaxDiskWrite", 12, r -> disk(r, StepUsage::getMaxDiskWrite)),
      text("MaxDiskWriteNode", 16, r -> node(r, StepUsage::getMaxDiskWriteNode)),
      num("MaxDiskWriteTask", 16, r -> task(r, StepUsage::getMaxDiskWriteTask)),
      text("MaxPages", 8, r -> count(r, StepUsage::getMaxPages)),
      text("MaxPagesNode", 12, r -> node(r, StepUsage::getMaxPagesNode)),
      num("MaxPagesTask", 14, r -> task(r, StepUsage::getMaxPagesTask)),
      text("MaxRSS", 10, r -> bytes(r, StepUsage::getMaxRssKb)),
      text("MaxRSSNode", 10, r -> node(r, StepUsage::getMaxRssNode)),
      num("MaxRSSTask", 10, r -> task(r, StepUsage::getMaxRssTask)),
      text("MaxVMSize", 10, r -> bytes(r, StepUsage::getMaxVmsizeKb)),
      text("MaxVMSizeNode", 14, r -> node(r, StepUsage::getMaxVmsizeNode)),
      num("MaxVMSizeTask", 14, r -> task(r, StepUsage::getMaxVmsizeTask)),
      text("McsLabel", 12, r -> null),
      text("MinCPU", 10, r -> cpu(r, StepUsage::getMinCpuMs)),
      text("MinCPUNode", 10, r -> node(r, StepUsage::getMinCpuNode)),
      num("MinCPUTask", 10, r -> task(r, StepUsage::getMinCpuTask)),
      num("NCPUS", 10, r -> Long.toString(r.cpus())),
      num("NNodes", 8, r -> Long.toString(r.isStep() || r.started() ? r.nodes() : reqNodes(r.job()))),
      text("NodeList", 15, r -> nodeList(r)),
      num("NTasks", 8, r -> r.isStep() ? Integer.toString(r.step().getNumTasks()) : null),
      text("Partition", 10, r -> r.isStep() ? null : r.job().getPartition()),
      num("Priority", 10, r -> r.isStep() ? null : Integer.toUnsignedString(r.job().getPriority())),
      text("QOS", 10, r -> r.isStep() ? null : qos(r.job())),
      num("QOSRAW", 6, r -> r.isStep() ? null : "1"),
      text("Reason", 22, r -> r.isStep() ? null : r.job().getReason().isEmpty() ? "None" : r.job().getReason()),
      text("ReqCPUFreq", 10, SacctField::reqCpuFreq),
      text("ReqCPUFreqGov", 13, SacctField::reqCpuFreq),
      text("ReqCPUFreqMax", 13, SacctField::reqCpuFreq),
      text("ReqCPUFreqMin", 13, SacctField::reqCpuFreq),
      num("ReqCPUS", 8, r -> Long.toString(r.isStep() ? r.cpus() : r.job().getReqCpus())),
      text("ReqMem", 10, r -> r.isStep() ? "" : r.ctx().units().format(reqMemMb(r.job()), Units.MEGA, 1024)),
      text("ReqNodes", 8, r -> r.ctx().units().format(r.isStep() ? r.nodes() : reqNodes(r.job()), Units.NONE, 1024)),
      text("ReqTRES", 10, r -> r.isStep() ? null : reqTres(r)),
      text("Reservation", 20, r -> null),
      num("ReservationId", 8, r -> null),
      num("Reserved", 10, r -> r.isStep() ? null : SlurmTimes.hms(reserved(r))),
      num("ResvCPU", 10, r -> r.isStep() ? null : SlurmTimes.hms(reserved(r) * r.job().getReqCpus())),
      num("ResvCPURAW", 10, r -> r.isStep() ? null : Long.toString(reserved(r) * r.job().getReqCpus())),
      new SacctField("Start", 19, Kind.DATE, r -> !r.isStep() && !r.started() && r.job().getEndTime() > 0 ? "None"
          : SlurmTimes.iso(r.isStep() ? r.step().getStartTime() : r.started() ? r.job().getStartTime() : 0,
              r.ctx().zone(), "Unknown")),
      text("State", 10, Row::state),
      date("Submit", 19, r -> r.isStep() ? r.step().getStartTime() : r.job().getSubmitTime()),
      text("SubmitLine", 20, r -> r.isStep() || r.job().getSubmitLine().isEmpty() ? null : r.job().getSubmitLine()),
      num("Suspended", 10, r -> SlurmTimes.hms(r.isStep() ? 0 : r.job().getSuspendedS())),
      text("SystemComment", 15, r -> null),
      text("SystemCPU", 10, r -> cpuTime(systemMs(r))),
      text("Timelimit", 10, r -> r.isStep() ? null : limit(r.job(), false)),
      text("TimelimitRaw", 10, r -> r.isStep() ? null : limit(r.job(), true)),
      text("TotalCPU", 10, r -> cpuTime(userMs(r) + systemMs(r))),
      text("TRESUsageInAve", 14, r -> TresUsage.inAve(r)),
      text("TRESUsageInMax", 14, r -> TresUsage.inMax(r)),
      text("TRESUsageInMaxNode", 18, r -> TresUsage.inMaxNode(r)),
      text("TRESUsageInMaxTask", 18, r -> TresUsage.inMaxTask(r)),
      text("TRESUsageInMin", 14, r -> TresUsage.inMin(r)),
      text("TRESUsageInMinNode", 18, r -> TresUsage.inMaxNode(r)),
      text("TRESUsageInMinTask", 18, r -> TresUsage.inMaxTask(r)),
      text("TRESUsageInTot", 14, r -> TresUsage.inTot(r)),
      text("TRESUsageOutAve", 15, r -> TresUsage.outAve(r)),
      text("TRESUsageOutMax", 15, r -> TresUsage.outMax(r)),
      text("TRESUsageOutMaxNode", 19, r -> TresUsage.outMaxNode(r)),
      text("TRESUsageOutMaxTask", 19, r -> TresUsage.outMaxTask(r)),
      text("TRESUsageOutMin", 15, r -> TresUsage.outMax(r)),
      text("TRESUsageOutMinNode", 19, r -> TresUsage.outMaxNode(r)),
      text("TRESUsageOutMinTask", 19, r -> TresUsage.outMaxTask(r)),
      text("TRESUsageOutTot", 15, r -> TresUsage.outTot(r)),
      num("UID", 6, r -> r.isStep() ? null : Integer.toUnsignedString(r.job().getUserId())),
      text("User", 9, r -> r.isStep() ? null : r.job().getUserName()),
      text("UserCPU", 10, r -> cpuTime(userMs(r))),
      text("WCKey", 10, r -> r.isStep() || r.job().getWckey().isEmpty() ? null : r.job().getWckey()),
      num("WCKeyID", 10, r -> r.isStep() ? null : Integer.toString(r.job().getWckeyId())),
      text("WorkDir", 20, r -> r.isStep() ? null : r.job().getWorkDir()));

  /** The columns without -o (nor SACCT_FORMAT). */
  static final String DEFAULT = "jobid,jobname,partition,account,alloccpus,state,exitcode";
  /** -b. */
  static final String BRIEF = "jobid,state,exitcode";
  /** -l. */
  static final String LONG = "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,"
      + "maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,"
      + "mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode,avecpufreq,reqcpufreqmin,reqcpufreqmax,"
      + "reqcpufreqgov,reqmem,consumedenergy,maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,"
      + "maxdiskwrite,maxdiskwritenode,maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave,"
      + "tresusageinmax,tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,"
      + "tresusageintot,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutave,tresusageouttot";

  private static SacctField text(String name, int width, Function<Row, String> value) {
    return new SacctField(name, width, Kind.TEXT, value);
  }

  private static SacctField num(String name, int width, Function<Row, String> value) {
    return new SacctField(name, width, Kind.NUMBER, value);
  }

  private static SacctField date(String name, int width, java.util.function.ToLongFunction<Row> epoch) {
    return new SacctField(name, width, Kind.DATE,
        r -> SlurmTimes.iso(epoch.applyAsLong(r), r.ctx().zone(), "Unknown"));
  }

  /** The first field whose name starts with {@code prefix} (any case), as Slurm matches -o names. */
  static Optional<SacctField> byPrefix(String prefix) {
    String p = prefix.toLowerCase(Locale.ROOT);
    return ALL.stream().filter(f -> f.name.toLowerCase(Locale.ROOT).startsWith(p)).findFirst();
  }

  SacctField withWidth(int w) {
    return new SacctField(name, w, kind, value);
  }

  // ---------------------------------------------------------------- values

  static String exitCode(int status, boolean fold128) {
    int code = 0;
    int signal = 0;
    int low = status & 0x7f;
    if (low != 0 && low != 0x7f) {
      signal = low;
    } else if (low == 0) {
      code = (status >> 8) & 0xff;
    }
    if (fold128 && code >= 128) {
      code -= 128;
    }
    return code + ":" + signal;
  }

  /** Slurm's default task distribution: cyclic while there are no more tasks than nodes, else block. */
  private static String layout(Row r) {
    if (!r.isStep()) {
      return null;
    }
    if (r.step().getStepId() < 0) {
      return "Unknown";
    }
    return r.step().getNumTasks() <= r.step().getNumNodes() ? "Cyclic" : "Block";
  }

  /** Unknown for a job and srun's steps (no frequency asked), 0 for the batch step. */
  private static String reqCpuFreq(Row r) {
    return r.isStep() && r.step().getStepId() == org.corral.protocol.StepIds.BATCH ? "0" : "Unknown";
  }

  /** A job whose srun steps reported energy (0) carries an energy count of its own. */
  private static boolean hasSrunSteps(AcctJob j) {
    return j.getStepsList().stream().anyMatch(s -> s.getStepId() >= 0);
  }

  private static long eligible(AcctJob j) {
    return j.getEligibleTime();
  }

  private static long reserved(Row r) {
    AcctJob j = r.job();
    if (j.getEligibleTime() <= 0 || j.getEligibleTime() == INFINITE) {
      return 0;
    }
    long until = r.started() ? j.getStartTime() : r.ctx().now();
    return Math.max(0, until - j.getEligibleTime());
  }

  private static long reqNodes(AcctJob j) {
    return j.getReqNodes() > 0 ? j.getReqNodes() : Math.max(1, j.getNumNodes());
  }

  /** Memory requested in all: per node times nodes, or per CPU times CPUs. */
  static long reqMemMb(AcctJob j) {
    long cpus = Math.max(j.getReqCpus(), j.getNumCpus());
    return j.getMemPerCpu() ? j.getReqMemMb() * cpus : j.getReqMemMb() * reqNodes(j);
  }

  static String qos(AcctJob j) {
    return j.getQos().isEmpty() ? "normal" : j.getQos();
  }

  private static String nodeList(Row r) {
    if (r.isStep()) {
      return r.step().getNodes();
    }
    return r.started() && !r.job().getNodes().isEmpty() ? r.job().getNodes() : "None assigned";
  }

  private static String limit(AcctJob j, boolean raw) {
    long min = Integer.toUnsignedLong(j.getTimeLimitMin());
    if (min == INFINITE) {
      return "UNLIMITED";
    }
    if (min == 0) {
      return null;
    }
    return raw ? Long.toString(min) : SlurmTimes.hms(min * 60);
  }

  /**
   * With the job's billing ({@code NO_BILLING}: a step's, which has none) and generic resources
   * ("gres/gpu=2"), in their place in the sorted list.
   */
  private static String tres(Row r, long cpus, long memMb, long nodes, long billing, String gres) {
    Units u = r.ctx().units();
    return (billing == NO_BILLING ? "" : "billing=" + billing + ",") + "cpu=" + cpus
        + (gres.isEmpty() ? "" : "," + gres) + ",mem=" + u.format(memMb, Units.MEGA, 1024) + ",node=" + nodes;
  }

  private static String allocTres(Row r) {
    if (r.isStep()) {
      return tres(r, r.cpus(), r.step().getReqMemMb(), r.nodes(), NO_BILLING, "");
    }
    if (!r.started()) {
      return null;
    }
    AcctJob j = r.job();
    return tres(r, r.cpus(), j.getAllocMemMb(), r.nodes(), j.hasAllocBilling() ? j.getAllocBilling() : r.cpus(),
        j.getAllocGres());
  }

  private static String reqTres(Row r) {
    AcctJob j = r.job();
    long cpus = Math.max(1, j.getReqCpus());
    return tres(r, cpus, reqMemMb(j), reqNodes(j), j.hasReqBilling() ? j.getReqBilling() : cpus, j.getReqGres());
  }

  private static long userMs(Row r) {
    return cpuMs(r, StepUsage::getUserCpuMs);
  }

  private static long systemMs(Row r) {
    return cpuMs(r, StepUsage::getSysCpuMs);
  }

  /** A step's CPU time; a job's is the sum over its finished steps. */
  private static long cpuMs(Row r, java.util.function.ToLongFunction<StepUsage> ms) {
    if (r.isStep()) {
      return r.usage() == null ? 0 : ms.applyAsLong(r.usage());
    }
    long sum = 0;
    for (var s : r.job().getStepsList()) {
      sum += s.hasUsage() && finished(s) ? ms.applyAsLong(s.getUsage()) : 0;
    }
    return sum;
  }

  private static boolean finished(org.corral.protocol.msg.AcctStep s) {
    return s.getState() != org.corral.protocol.msg.JobState.RUNNING
        && s.getState() != org.corral.protocol.msg.JobState.PENDING
        && s.getState() != org.corral.protocol.msg.JobState.SUSPENDED;
  }

  /**
   * CPU time as sacct writes TotalCPU, UserCPU and SystemCPU: D-HH:MM:SS, HH:MM:SS, or under an
   * hour MM:SS.mmm (00:MM:SS when the milliseconds are 0).
   */
  static String cpuTime(long ms) {
    long secs = ms / 1000;
    long sub = ms % 1000;
    long days = secs / 86400;
    long hours = secs / 3600 % 24;
    long minutes = secs / 60 % 60;
    long seconds = secs % 60;
    if (days > 0) {
      return String.format(Locale.ROOT, "%d-%02d:%02d:%02d", days, hours, minutes, seconds);
    }
    if (hours > 0) {
      return String.format(Locale.ROOT, "%02d:%02d:%02d", hours, minutes, seconds);
    }
    if (sub > 0) {
      return String.format(Locale.ROOT, "%02d:%02d.%03d", minutes, seconds, sub);
    }
    return String.format(Locale.ROOT, "00:%02d:%02d", minutes, seconds);
  }

  private static String cpu(Row r, java.util.function.ToLongFunction<StepUsage> ms) {
    StepUsage u = r.sampled();
    if (u == null) {
      return null;
    }
    return cpuTime(ms.applyAsLong(u) / 1000 * 1000);
  }

  /** Bytes read or written, shown in MB: "0", "0.05M", "2M". */
  private static String disk(Row r, java.util.function.ToLongFunction<StepUsage> bytes) {
    StepUsage u = r.sampled();
    if (u == null) {
      return "";
    }
    double mb = bytes.applyAsLong(u) / (double) (1 << 20);
    if (mb > 1) {
      return r.ctx().units().format(mb, Units.MEGA, 1024);
    }
    return mb > 0 ? String.format(Locale.ROOT, "%.2fM", mb) : "0";
  }

  private static String count(Row r, java.util.function.ToLongFunction<StepUsage> n) {
    StepUsage u = r.sampled();
    if (u == null) {
      return "";
    }
    return r.ctx().units().format(n.applyAsLong(u), Units.NONE, 1024);
  }

  private static String bytes(Row r, java.util.function.ToLongFunction<StepUsage> kb) {
    StepUsage u = r.sampled();
    if (u == null) {
      return "";
    }
    return r.ctx().units().format(kb.applyAsLong(u) * 1024.0, Units.NONE, 1024);
  }

  private static String node(Row r, Function<StepUsage, String> n) {
    StepUsage u = r.sampled();
    if (u == null) {
      return null;
    }
    String v = n.apply(u);
    return v.isEmpty() ? firstNode(r.step().getNodes()) : v;
  }

  private static String firstNode(String nodes) {
    if (nodes.isEmpty()) {
      return null;
    }
    List<String> names = Hostlist.expand(nodes);
    return names.isEmpty() ? null : names.get(0);
  }

  private static String task(Row r, java.util.function.ToIntFunction<StepUsage> t) {
    StepUsage u = r.sampled();
    return u == null ? null : Integer.toString(t.applyAsInt(u));
  }
}

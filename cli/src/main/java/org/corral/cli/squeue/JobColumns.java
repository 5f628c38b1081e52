package org.corral.cli.squeue;

import java.util.List;
import java.util.function.Function;
import org.corral.cli.format.Column;
import org.corral.cli.format.Dependencies;
import org.corral.cli.format.JobIds;
import org.corral.cli.format.JobStates;
import org.corral.cli.format.OverSubscribeWord;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.MemorySize;
import org.corral.common.SlurmDuration;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/** Every field squeue can print: {@code %} letter, {@code -O} name, header and value. */
final class JobColumns {
  private JobColumns() {}

  static final List<Column<JobRow>> ALL = List.of(
      col('i', null, "JOBID", JobIds::arrayAware),
      col('\0', "JobID", "JOBID", j -> Integer.toUnsignedString(j.getJobId())),
      col('A', null, "JOBID", j -> Integer.toUnsignedString(j.getJobId())),
      col('\0', "JobArrayID", "JOBID", JobIds::arrayAware),
      col('F', "ArrayJobID", "ARRAY_JOB_ID",
          j -> Integer.toUnsignedString(j.getArrayJobId() != 0 ? j.getArrayJobId() : j.getJobId())),
      col('K', "ArrayTaskID", "ARRAY_TASK_ID", j -> j.getArrayJobId() == 0 ? "N/A"
          : !j.getArrayTasks().isEmpty() ? j.getArrayTasks() : Integer.toUnsignedString(j.getArrayTaskId())),
      col('j', "Name", "NAME", JobInfo::getName),
      col('u', "UserName", "USER", JobInfo::getUserName),
      col('U', "UserID", "UID", j -> Integer.toUnsignedString(j.getUserId())),
      col('g', "GroupName", "GROUP", JobInfo::getGroupName),
      col('G', "GroupID", "GROUP", j -> Integer.toUnsignedString(j.getGroupId())),
      col('a', "Account", "ACCOUNT", j -> orNull(j.getAccount())),
      col('P', "Partition", "PARTITION", JobInfo::getPartition),
      col('t', "StateCompact", "ST", JobStates::code),
      col('T', "State", "STATE", JobStates::name),
      row('M', "TimeUsed", "TIME", r -> SlurmDuration.formatSeconds(r.elapsed())).uncut(),
      col('l', "TimeLimit", "TIME_LIMIT", j -> limit(j.getTimeLimitMin())).uncut(),
      row('L', "TimeLeft", "TIME_LEFT", JobColumns::timeLeft).uncut(),
      col('D', "NumNodes", "NODES", j -> Integer.toUnsignedString(j.getNumNodes())),
      col('C', "NumCPUs", "CPUS", j -> Integer.toUnsignedString(j.getNumCpus())),
      col('\0', "NumTasks", "TASKS",
          j -> Integer.toUnsignedString(Math.max(j.getNumTasks(), Math.max(1, j.getNumNodes())))),
      col('d', "MinTmpDisk", "MIN_TMP_DISK", j -> "0"),
      col('c', "MinCpus", "MIN_CPUS", j -> Integer.toString(Math.max(1, j.getCpusPerTask()))),
      col('m', "MinMemory", "MIN_MEMORY", JobColumns::minMemory),
      col('N', "NodeList", "NODELIST", JobInfo::getNodes),
      col('n', "ReqNodes", "REQ_NODES", JobInfo::getReqNodes),
      col('x', "ExcNodes", "EXC_NODES", JobInfo::getExcNodes),
      col('B', "BatchHost", "EXEC_HOST", j -> j.getBatchHost().isEmpty() ? "n/a" : j.getBatchHost()),
      col('R', "ReasonList", "NODELIST(REASON)", JobColumns::reasonList),
      col('r', "Reason", "REASON", JobInfo::getStateReason),
      // -O's Priority is %p's normalized one, PriorityLong %Q's integer (squeue(1))
      col('Q', "PriorityLong", "PRIORITY", j -> Integer.toUnsignedString(j.getPriority())),
      col('p', "Priority", "PRIORITY",
          j -> String.format("%.14f", Integer.toUnsignedLong(j.getPriority()) / 4294967296.0)),
      row('V', "SubmitTime", "SUBMIT_TIME", r -> SlurmTimes.iso(r.job().getSubmitTime(), r.zone(), "N/A")),
      row('S', "StartTime", "START_TIME", JobRow::start),
      row('e', "EndTime", "END_TIME", JobRow::end),
      col('Z', "WorkDir", "WORK_DIR", JobInfo::getWorkDir),
      col('o', "Command", "COMMAND", j -> orNull(j.getCommand())),
      col('k', "Comment", "COMMENT", j -> orNull(j.getComment())),
      col('E', "Dependency", "DEPENDENCY", j -> orNull(Dependencies.shown(j))),
      col('h', "OverSubscribe", "OVER_SUBSCRIBE", OverSubscribeWord::of),
      col('\0', "Shared", "OVER_SUBSCRIBE", OverSubscribeWord::of),
      col('H', "SocketsPerNode", "SOCKETS_PER_NODE", j -> "*"),
      col('I', "CoresPerSocket", "CORES_PER_SOCKET", j -> "*"),
      col('J', "ThreadsPerCore", "THREADS_PER_CORE", j -> "*"),
      col('z', "SCT", "S:C:T", j -> "*:*:*"),
      col('O', "Contiguous", "CONTIGUOUS", j -> j.getContiguous() ? "1" : "0"),
      col('w', "WCKey", "WCKEY", j -> "(null)"),
      col('f', "Feature", "FEATURES", j -> orNull(j.getFeatures())),
      col('b', "TresPerNode", "TRES_PER_NODE", j -> j.getTresPerNode().isEmpty() ? "N/A" : j.getTresPerNode()),
      col('q', "QOS", "QOS", j -> j.getQos().isEmpty() ? "(null)" : j.getQos()),
      col('y', "Nice", "NICE", j -> Integer.toString(j.getNice())),
      col('v', "Reservation", "RESERVATION", j -> j.getReservation().isEmpty() ? "(null)" : j.getReservation()),
      col('X', "CoreSpec", "CORE_SPEC", j -> "N/A"),
      col('Y', "SchedNodes", "SCHEDNODES", j -> j.getSchedNodes().isEmpty() ? "(null)" : j.getSchedNodes()),
      col('s', null, "", j -> ""),
      col('W', "Licenses", "LICENSES", j -> j.getLicenses().isEmpty() ? "(null)" : j.getLicenses()));

  private static Column<JobRow> col(char letter, String name, String header,
      Function<JobInfo, String> value) {
    return new Column<>(letter, name, header, r -> value.apply(r.job()));
  }

  private static Column<JobRow> row(char letter, String name, String header,
      Function<JobRow, String> value) {
    return new Column<>(letter, name, header, value);
  }

  static String orNull(String s) {
    return s == null || s.isEmpty() ? "(null)" : s;
  }

  private static String limit(int minutes) {
    return SlurmDuration.formatMinutes(Integer.toUnsignedLong(minutes));
  }

  private static String timeLeft(JobRow r) {
    if (r.unlimited()) {
      return "UNLIMITED";
    }
    return SlurmDuration.formatSeconds(60L * r.job().getTimeLimitMin() - r.elapsed());
  }

  private static String minMemory(JobInfo j) {
    if (j.getMemPerCpuMb() > 0) {
      return MemorySize.format(j.getMemPerCpuMb());
    }
    return MemorySize.format(j.getMemPerNodeMb());
  }

  /**
   * The pending reason in parentheses for jobs waiting or ended abnormally with a reason, the
   * node list otherwise.
   */
  static String reasonList(JobInfo j) {
    JobState s = j.getState();
    boolean showReason = s == JobState.PENDING || s == JobState.SPECIAL_EXIT
        || (!j.getCompleting() && (s == JobState.FAILED || s == JobState.TIMEOUT
            || s == JobState.OUT_OF_MEMORY || s == JobState.DEADLINE || s == JobState.NODE_FAIL
            || s == JobState.BOOT_FAIL) && !j.getStateReason().isEmpty()
            && !j.getStateReason().equals("None"));
    return showReason ? "(" + j.getStateReason() + ")" : j.getNodes();
  }
}

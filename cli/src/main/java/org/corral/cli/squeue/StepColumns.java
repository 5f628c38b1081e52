package org.corral.cli.squeue;

import java.util.List;
import java.util.function.Function;
import org.corral.cli.format.Column;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.SlurmDuration;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.StepInfo;

/** Every field squeue -s can print: {@code %} letter, {@code -O} name, header and value. */
final class StepColumns {
  private StepColumns() {}

  static final List<Column<StepRow>> ALL = List.of(
      step('i', "StepId", "STEPID", StepColumns::id),
      step('j', "StepName", "NAME", StepInfo::getName),
      step('P', "Partition", "PARTITION", StepInfo::getPartition),
      step('u', "UserName", "USER", StepInfo::getUserName),
      step('U', "UserID", "UID", s -> Integer.toUnsignedString(s.getUserId())),
      row('M', "TimeUsed", "TIME", r -> SlurmDuration.formatSeconds(r.elapsed())).uncut(),
      step('l', "TimeLimit", "TIME_LIMIT",
          s -> SlurmDuration.formatMinutes(Integer.toUnsignedLong(s.getTimeLimitMin()))).uncut(),
      row('S', "StartTime", "START_TIME", r -> SlurmTimes.iso(r.step().getStartTime(), r.zone(), "N/A")),
      step('N', "NodeList", "NODELIST", StepInfo::getNodes),
      step('A', "NumTasks", "TASKS", s -> Integer.toUnsignedString(s.getNumTasks())),
      step('b', "TresPerNode", "TRES_PER_NODE", s -> "N/A"),
      step('\0', "NumCPUs", "NUM_CPUS", s -> Integer.toUnsignedString(s.getNumCpus())),
      step('\0', "StepState", "STATE", s -> s.getState().name()),
      step('\0', "JobID", "JOBID", s -> Integer.toUnsignedString(s.getJobId())),
      step('\0', "ArrayJobID", "ARRAY_JOB_ID",
          s -> Integer.toUnsignedString(s.getArrayJobId() != 0 ? s.getArrayJobId() : s.getJobId())),
      step('\0', "ArrayTaskID", "ARRAY_TASK_ID",
          s -> s.getArrayJobId() != 0 ? Integer.toUnsignedString(s.getArrayTaskId()) : "N/A"),
      step('\0', "Name", "NAME", StepInfo::getName));

  /** JOB.STEP, an array task's as ARRAY_TASK.STEP (12_3.batch). */
  static String id(StepInfo s) {
    String job = s.getArrayJobId() != 0
        ? Integer.toUnsignedString(s.getArrayJobId()) + "_" + Integer.toUnsignedString(s.getArrayTaskId())
        : Integer.toUnsignedString(s.getJobId());
    return job + "." + StepIds.name(s.getStepId());
  }

  private static Column<StepRow> step(char letter, String name, String header, Function<StepInfo, String> value) {
    return new Column<>(letter, name, header, r -> value.apply(r.step()));
  }

  private static Column<StepRow> row(char letter, String name, String header, Function<StepRow, String> value) {
    return new Column<>(letter, name, header, value);
  }
}

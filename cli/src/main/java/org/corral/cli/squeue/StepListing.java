package org.corral.cli.squeue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.format.Table;
import org.corral.common.SlurmError;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepInfoRequest;

/** squeue -s: running job steps (and batch steps), one line each. */
final class StepListing {
  static final String DEFAULT_FORMAT = "%.15i %.8j %.9P %.8u %.9M %N";

  /** Job id, then step id as an unsigned number (so .batch follows the numbered steps). */
  /** Slurm's default for steps ("P,i"): partition, then job and step id. */
  private static final Comparator<StepRow> ORDER = Comparator
      .comparing((StepRow r) -> r.step().getPartition())
      .thenComparingLong(r -> Integer.toUnsignedLong(
          r.step().getArrayJobId() != 0 ? r.step().getArrayJobId() : r.step().getJobId()))
      .thenComparingLong(r -> Integer.toUnsignedLong(r.step().getArrayTaskId()))
      .thenComparingLong(r -> Integer.toUnsignedLong(r.step().getStepId()));

  private StepListing() {}

  static int run(SqueueOptions opts, Cli cli) {
    Table<StepRow> table;
    try {
      table = opts.longFormat() != null
          ? Table.ofLong(opts.longFormat(), StepColumns.ALL, 20,
              f -> cli.error("error: Invalid job format specification: " + f))
          : Table.ofPercent(opts.stepFormat(), StepColumns.ALL,
              c -> cli.error("error: Invalid job format specification: " + c));
    } catch (IllegalArgumentException e) {
      cli.error("error: Invalid job format specification: " + e.getMessage());
      return 1;
    }
    List<StepInfo> steps;
    try {
      Response r = cli.controller().get().call(Request.newBuilder()
          .setStepInfo(StepInfoRequest.getDefaultInstance()).build());
      if (r.getErrorCode() != 0) {
        cli.error("error: " + SlurmError.messageFor(r.getErrorCode()));
        return 1;
      }
      steps = r.getStepInfo().getStepsList();
    } catch (IOException e) {
      cli.err().println("slurm_load_job_steps error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    List<StepRow> rows = new ArrayList<>();
    for (StepInfo s : steps) {
      if (accepts(opts, s)) {
        rows.add(new StepRow(s, now, cli.clock().getZone()));
      }
    }
    rows.sort(ORDER);
    if (opts.header()) {
      if (opts.dateLine()) {
        cli.out().println(SlurmTimes.ctime(cli.clock().instant(), cli.clock().getZone()));
      }
      cli.out().println(table.header());
    }
    for (StepRow r : rows) {
      cli.out().println(table.row(r));
    }
    return 0;
  }

  private static boolean accepts(SqueueOptions opts, StepInfo s) {
    if (!opts.steps().isEmpty() && !opts.steps().contains(StepColumns.id(s))
        && !opts.steps().contains(Integer.toUnsignedString(s.getJobId()) + "." + StepIds.name(s.getStepId()))) {
      return false;
    }
    if (opts.jobIds() != null && !opts.jobIds().contains(s.getJobId())
        && !(s.getArrayJobId() != 0 && opts.jobIds().contains(s.getArrayJobId()))) {
      return false;
    }
    if (opts.partitions() != null && !opts.partitions().contains(s.getPartition())) {
      return false;
    }
    return opts.users() == null || opts.users().contains(s.getUserName())
        || opts.users().contains(Integer.toUnsignedString(s.getUserId()));
  }
}

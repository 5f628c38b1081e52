package org.corral.cli.squeue;

import java.time.Clock;
import java.time.ZoneId;
import org.corral.cli.format.SlurmTimes;
import org.corral.protocol.msg.JobInfo;

/**
 * A job as squeue prints it: the record plus the moment the listing is for and the clock whose
 * zone dates are shown in (looked up only when a date is printed).
 */
record JobRow(JobInfo job, long now, Clock clock) {

  ZoneId zone() {
    return clock.getZone();
  }

  /** Seconds the job has run: until now while running, until its end once ended. */
  long elapsed() {
    return org.corral.cli.format.RunTime.seconds(job, now);
  }

  boolean unlimited() {
    return (job.getTimeLimitMin() & 0xFFFFFFFFL) == SlurmTimes.INFINITE;
  }

  /** Start time column: the (expected) start, or N/A. */
  String start() {
    return SlurmTimes.iso(job.getStartTime(), zone(), "N/A");
  }

  /** End time column: the end, the start plus the limit, NONE without a limit, or N/A. */
  String end() {
    if (job.getEndTime() > 0) {
      return SlurmTimes.iso(job.getEndTime(), zone(), "N/A");
    }
    if (job.getStartTime() <= 0) {
      return "N/A";
    }
    return unlimited() ? "NONE"
        : SlurmTimes.iso(job.getStartTime() + 60L * job.getTimeLimitMin(), zone(), "N/A");
  }
}

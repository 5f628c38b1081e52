package org.corral.dbd.report;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.dbd.report.UsageStore.Marks;
import org.corral.dbd.report.UsageStore.Span;
import org.corral.dbd.storage.JobSelection;
import org.corral.dbd.storage.JobStore;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.ClusterUsage;
import org.corral.protocol.msg.JobSizeUsage;
import org.corral.protocol.msg.UsageReportReply;
import org.corral.protocol.msg.UsageReportRequest;

/**
 * sreport's question: the usage of a window, read from the rollups. The window is cut into
 * whole months, whole days and hours (the largest periods that fit and are rolled up), so a
 * year costs a dozen rows per association, not thousands. Usage is not private: anyone may ask,
 * as with Slurm without PrivateData=usage.
 */
public final class ReportService {
  private final UsageStore store;
  private final JobStore jobs;
  private final UsageCalendar calendar;
  private final String defaultCluster;
  private final Clock clock;

  public ReportService(Rollups rollups, JobStore jobs, String defaultCluster, Clock clock) {
    this.store = rollups.store();
    this.calendar = rollups.calendar();
    this.jobs = jobs;
    this.defaultCluster = defaultCluster;
    this.clock = clock;
  }

  public UsageReportReply report(UsageReportRequest r) throws SQLException {
    List<String> clusters = r.getAllClusters() ? store.clusters()
        : r.getClustersCount() == 0 ? List.of(defaultCluster) : r.getClustersList();
    UsageReportReply.Builder out = UsageReportReply.newBuilder();
    for (String cluster : clusters) {
      if (r.getJobSizes()) {
        jobSizes(cluster, r.getStart(), r.getEnd(), out); // from the records: no rollup needed
      }
      Usage sum = usage(cluster, r.getStart(), r.getEnd());
      if (sum == null) {
        continue;
      }
      out.addClusters(ClusterUsage.newBuilder().setCluster(cluster).setCpus((int) sum.cpus).setAllocSecs(sum.alloc)
          .setDownSecs(sum.down).setPlannedDownSecs(sum.plannedDown).setIdleSecs(sum.idle)
          .setPlannedSecs(sum.planned).setOverSecs(sum.over).setTotalSecs(sum.total));
      sum.assocs.forEach((a, secs) -> out.addAssocs(AssocUsage.newBuilder().setCluster(cluster)
          .setAccount(a.account()).setUser(a.user()).setAllocSecs(secs)));
    }
    return out.build();
  }

  /** The sum of the rolled-up periods in [start, end); null when there are none. */
  Usage usage(String cluster, long start, long end) throws SQLException {
    try (Connection c = store.database().connection()) {
      Marks m = store.marks(c, cluster);
      if (m == null) {
        return null;
      }
      Usage sum = new Usage();
      boolean any = false;
      long t = calendar.hourOf(start);
      long stop = Math.min(end, m.hourThrough());
      while (t < stop) {
        Span span = Span.HOUR;
        long next = calendar.nextHour(t);
        if (t == calendar.monthOf(t) && calendar.nextMonth(t) <= stop && calendar.nextMonth(t) <= m.monthThrough()) {
          span = Span.MONTH;
          next = calendar.nextMonth(t);
        } else if (t == calendar.dayOf(t) && calendar.nextDay(t) <= stop && calendar.nextDay(t) <= m.dayThrough()) {
          span = Span.DAY;
          next = calendar.nextDay(t);
        }
        // as many periods of this span as follow one another
        long runEnd = next;
        while (runEnd < stop) {
          long after = switch (span) {
            case MONTH -> calendar.nextMonth(runEnd);
            case DAY -> calendar.nextDay(runEnd);
            case HOUR -> calendar.nextHour(runEnd);
          };
          boolean fits = switch (span) {
            case MONTH -> after <= stop && after <= m.monthThrough();
            case DAY -> after <= stop && after <= m.dayThrough() && runEnd != calendar.monthOf(runEnd);
            case HOUR -> runEnd != calendar.dayOf(runEnd);
          };
          if (!fits) {
            break;
          }
          runEnd = after;
        }
        for (Usage u : store.read(c, cluster, span, t, runEnd).values()) {
          sum.add(u);
          any = true;
        }
        t = runEnd;
      }
      return any ? sum : null;
    }
  }

  /** Job sizes: the CPU time in the window of the jobs that ran in it, by account and CPU count. */
  private void jobSizes(String cluster, long start, long end, UsageReportReply.Builder out) throws SQLException {
    long now = clock.instant().getEpochSecond();
    Map<String, Map<Integer, long[]>> by = new TreeMap<>();
    JobSelection sel = new JobSelection().where("cluster = ?", cluster).where("start_time > ?", 0)
        .where("start_time < ?", end).where("(end_time = 0 OR end_time >= ?)", start);
    for (AcctJob j : jobs.find(sel)) {
      long jobEnd = j.getEndTime() > 0 ? j.getEndTime() : now;
      long secs = UsageCalendar.overlap(j.getStartTime(), jobEnd, start, end);
      if (secs == 0) {
        continue; // as Slurm's job reports: a job that used no time in the window counts nowhere
      }
      long[] acc = by.computeIfAbsent(j.getAccount(), k -> new TreeMap<>())
          .computeIfAbsent(j.getNumCpus(), k -> new long[2]);
      acc[0] += secs * j.getNumCpus();
      acc[1]++;
    }
    by.forEach((account, sizes) -> sizes.forEach((cpus, acc) -> out.addJobSizes(JobSizeUsage.newBuilder()
        .setCluster(cluster).setAccount(account).setCpus(cpus).setAllocSecs(acc[0]).setJobs((int) acc[1]))));
  }

  /** All known clusters (for tests and all_clusters). */
  List<String> clusters() throws SQLException {
    return new ArrayList<>(store.clusters());
  }
}

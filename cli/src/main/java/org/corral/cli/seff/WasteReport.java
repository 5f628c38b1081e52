package org.corral.cli.seff;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.cli.Cli;
import org.corral.cli.format.JobStates;
import org.corral.cli.format.LocalCluster;
import org.corral.cli.format.Printf;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.JobEfficiency;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code seff --waste}: the jobs that ended in the last N days whose CPU or memory efficiency (as
 * seff computes it) was under a threshold, per user: how many, their mean efficiencies, and the
 * core-hours and GiB-hours they held without using; then the jobs themselves. Users see their
 * own jobs, root, SlurmUser and administrators everyone's (slurmdbd decides, as for sacct).
 * Read in pages, so a month of a large cluster's jobs never sits in memory at once.
 */
final class WasteReport {
  /** The report's settings: days back, thresholds in percent, one user or all. */
  record Options(int days, double cpuPercent, double memPercent, String user) {
    static final Options DEFAULT = new Options(7, 50, 50, null);

    static Options with(Options o, String arg) {
      Options base = o == null ? DEFAULT : o;
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      String value = eq < 0 ? "" : arg.substring(eq + 1);
      try {
        return switch (name) {
          case "--waste" -> base;
          case "--days" -> new Options(positive(Integer.parseInt(value), arg), base.cpuPercent, base.memPercent,
              base.user);
          case "--cpu" -> new Options(base.days, Double.parseDouble(value), base.memPercent, base.user);
          case "--mem" -> new Options(base.days, base.cpuPercent, Double.parseDouble(value), base.user);
          case "--user" -> new Options(base.days, base.cpuPercent, base.memPercent, value);
          default -> throw new IllegalArgumentException("unknown option " + arg);
        };
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a number: " + arg);
      }
    }

    private static int positive(int n, String arg) {
      if (n < 1) {
        throw new IllegalArgumentException("not a number of days: " + arg);
      }
      return n;
    }
  }

  private final Cli cli;
  private final Options options;

  WasteReport(Cli cli, Options options) {
    this.cli = cli;
    this.options = options;
  }

  /** One user's totals. */
  private static final class Totals {
    int jobs;
    int wasteful;
    double cpuSum;
    double memSum;
    double idleCoreHours;
    double idleGibHours;
  }

  int run() {
    long now = cli.clock().instant().getEpochSecond();
    Map<String, Totals> users = new TreeMap<>();
    List<String> rows = new ArrayList<>();
    JobQueryRequest.Builder q = JobQueryRequest.newBuilder().setStart(now - options.days * 86400L).setEnd(now)
        .setAllUsers(options.user == null).addAllClusters(LocalCluster.of(cli.env())).setPageSize(1000);
    if (options.user != null) {
      UserDirectory.system().uidOf(options.user).ifPresentOrElse(q::addUserIds, () -> q.addUserIds(Integer.MAX_VALUE));
    }
    try {
      while (true) {
        Response r = cli.accounting().get().call(Request.newBuilder().setJobQuery(q).build());
        if (r.getErrorCode() != 0) {
          cli.err().println("seff: error: " + r.getErrorMessage());
          return 1;
        }
        JobQueryReply page = r.getJobQuery();
        for (AcctJob job : page.getJobsList()) {
          add(job, now, users, rows);
        }
        if (!page.getMore()) {
          break;
        }
        q.setAfterJobId(page.getNextJobId()).setAfterSubmitTime(page.getNextSubmitTime())
            .setAfterArrayJobId(page.getNextArrayJobId()).setAfterArrayTaskId(page.getNextArrayTaskId());
      }
    } catch (IOException | UncheckedIOException e) {
      cli.err().println("seff: error: Problem talking to the database: " + e.getMessage());
      return 1;
    }
    StringBuilder out = new StringBuilder();
    out.append("Jobs ended in the last ").append(options.days).append(" days with CPU efficiency under ")
        .append(Printf.fixed(options.cpuPercent, 0)).append("% or memory efficiency under ")
        .append(Printf.fixed(options.memPercent, 0)).append("%\n\n");
    out.append(String.format("%-12s %6s %9s %8s %8s %14s %14s%n", "User", "Jobs", "Wasteful", "CPU Eff",
        "Mem Eff", "Idle core-h", "Idle GiB-h"));
    users.forEach((user, t) -> out.append(String.format("%-12s %6d %9d %7s%% %7s%% %14s %14s%n", user, t.jobs,
        t.wasteful, Printf.fixed(t.cpuSum / t.jobs, 2), Printf.fixed(t.memSum / t.jobs, 2),
        Printf.fixed(t.idleCoreHours, 2), Printf.fixed(t.idleGibHours, 2))));
    out.append('\n').append(String.format("%-12s %-12s %-10s %5s %11s %8s %8s%n", "JobID", "User", "State", "Cores",
        "Walltime", "CPU Eff", "Mem Eff"));
    rows.forEach(out::append);
    cli.out().print(out);
    cli.out().flush();
    return 0;
  }

  private void add(AcctJob job, long now, Map<String, Totals> users, List<String> rows) {
    if (job.getEndTime() == 0 || job.getStartTime() == 0 || job.getState() == JobState.PENDING
        || job.getState() == JobState.RUNNING) {
      return; // not ended, or never ran: nothing was held
    }
    JobEfficiency e = JobEfficiency.of(job, now);
    String user = job.getUserName().isEmpty() ? Integer.toUnsignedString(job.getUserId()) : job.getUserName();
    Totals t = users.computeIfAbsent(user, k -> new Totals());
    t.jobs++;
    t.cpuSum += e.cpuPercent();
    t.memSum += e.memPercent();
    boolean wasteful = e.cpuPercent() < options.cpuPercent || (e.allocKb() > 0 && e.memPercent() < options.memPercent);
    if (!wasteful) {
      return;
    }
    t.wasteful++;
    double hours = e.walltime() / 3600.0;
    t.idleCoreHours += Math.max(0, e.coreWall() - e.cput()) / 3600.0;
    t.idleGibHours += Math.max(0, e.allocKb() - e.memKb()) / (1024.0 * 1024.0) * hours;
    String id = job.getArrayJobId() != 0 ? job.getArrayJobId() + "_" + job.getArrayTaskId()
        : Integer.toUnsignedString(job.getJobId());
    rows.add(String.format("%-12s %-12s %-10s %5d %11s %7s%% %7s%%%n", id, user, JobStates.name(job.getState()),
        e.ncpus(), SeffCommand.duration(e.walltime()), Printf.fixed(e.cpuPercent(), 2),
        Printf.fixed(e.memPercent(), 2)));
  }
}

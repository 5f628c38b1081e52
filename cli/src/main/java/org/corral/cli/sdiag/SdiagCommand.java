package org.corral.cli.sdiag;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.CycleStats;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.RpcStat;
import org.corral.protocol.msg.StatsReply;
import org.corral.protocol.msg.StatsRequest;

/**
 * sdiag: the controller's counters in Slurm's layout, line for line (Prometheus exporters read
 * it that way); -r resets them (administrators); --json prints them as slurmrestd's diag does
 * (data_parser v0.0.42; Slurm 23.02's sdiag option, 22.05's has none).
 */
public final class SdiagCommand implements CliCommand {
  private static final Getopt GETOPT = new Getopt("ahiM:rtTV", List.of(
      new LongOpt("all", Arg.NONE, "a"),
      new LongOpt("cluster", Arg.REQUIRED, "M"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("reset", Arg.NONE, "r"),
      new LongOpt("sort-by-id", Arg.NONE, "i"),
      new LongOpt("sort-by-time", Arg.NONE, "t"),
      new LongOpt("sort-by-time2", Arg.NONE, "T"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("json", Arg.NONE, "json"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("usage", Arg.NONE, "usage")));
  static final String USAGE = "Usage: sdiag [-M cluster] [-aritT]";
  private static final String STARS = "*******************************************************";

  @Override
  public int run(List<String> args, Cli cli) {
    boolean reset = false;
    boolean json = false;
    char sort = 'c';
    try {
      for (Getopt.Opt o : GETOPT.parse(args).options()) {
        switch (o.key()) {
          case "r" -> reset = true;
          case "json" -> json = true;
          case "i", "t", "T" -> sort = o.key().charAt(0);
          case "V", "usage" -> {
            return HelpText.info(cli, SdiagCommand.class, o.key(), USAGE + "\n");
          }
          case "h", "help" -> { // -h is sdiag's help, not "no header"
            return HelpText.info(cli, SdiagCommand.class, "help", null);
          }
          default -> { } // -a, -M: one cluster, everything shown already
        }
      }
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"sdiag --help\" for more information");
      return 1;
    }
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder()
          .setStats(StatsRequest.newBuilder().setReset(reset)).build());
    } catch (IOException e) {
      cli.err().println((reset ? "slurm_reset_statistics: " : "slurm_get_statistics: ")
          + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println((reset ? "slurm_reset_statistics: " : "slurm_get_statistics: ")
          + SlurmError.messageFor(r.getErrorCode()));
      return reset ? 255 : 1;
    }
    if (reset) {
      cli.out().println("Reset scheduling statistics");
      return 0;
    }
    if (json) {
      List<String> argv = new ArrayList<>(List.of(cli.program()));
      argv.addAll(args);
      cli.out().print(org.corral.cli.format.JsonOutput.diag(r.getStats(), argv, cli.env().getOrDefault("USER", ""),
          String.join(",", org.corral.cli.format.LocalCluster.of(cli.env()))));
      return 0;
    }
    cli.out().print(text(r.getStats(), cli.clock().getZone(), sort));
    return 0;
  }

  static String text(StatsReply s, ZoneId zone, char sort) {
    StringBuilder b = new StringBuilder();
    b.append(STARS).append('\n');
    b.append("sdiag output at ").append(ctime(s.getNow(), zone)).append('\n');
    b.append("Data since      ").append(ctime(s.getSince(), zone)).append('\n');
    b.append(STARS).append('\n');
    b.append("Server thread count:  ").append(s.getServerThreads()).append('\n');
    b.append("Agent queue size:     0\nAgent count:          0\nAgent thread count:   0\n");
    b.append("DBD Agent queue size: 0\n\n");
    b.append("Jobs submitted: ").append(s.getJobsSubmitted()).append('\n');
    b.append("Jobs started:   ").append(s.getJobsStarted()).append('\n');
    b.append("Jobs completed: ").append(s.getJobsCompleted()).append('\n');
    b.append("Jobs canceled:  ").append(s.getJobsCanceled()).append('\n');
    b.append("Jobs failed:    ").append(s.getJobsFailed()).append("\n\n");
    b.append("Job states ts:  ").append(ctime(s.getNow(), zone)).append('\n');
    b.append("Jobs pending:   ").append(s.getJobsPending()).append('\n');
    b.append("Jobs running:   ").append(s.getJobsRunning()).append("\n\n");

    CycleStats m = s.getMain();
    b.append("Main schedule statistics (microseconds):\n");
    b.append("\tLast cycle:   ").append(m.getLastUs()).append('\n');
    b.append("\tMax cycle:    ").append(m.getMaxUs()).append('\n');
    b.append("\tTotal cycles: ").append(m.getCount()).append('\n');
    if (m.getCount() > 0) {
      long minutes = Math.max(1, (s.getNow() - s.getSince()) / 60);
      b.append("\tMean cycle:   ").append(m.getTotalUs() / m.getCount()).append('\n');
      b.append("\tMean depth cycle:  ").append(m.getDepthTotal() / m.getCount()).append('\n');
      b.append("\tCycles per minute: ").append(m.getCount() / minutes).append('\n');
    }
    b.append("\tLast queue length: ").append(m.getLastQueue()).append("\n\n");

    CycleStats f = s.getBackfill();
    b.append("Backfilling stats\n");
    b.append("\tTotal backfilled jobs (since last slurm start): ").append(s.getBackfilledSinceStart()).append('\n');
    b.append("\tTotal backfilled jobs (since last stats cycle start): ").append(s.getBackfilled()).append('\n');
    b.append("\tTotal backfilled heterogeneous job components: 0\n");
    b.append("\tTotal cycles: ").append(f.getCount()).append('\n');
    b.append("\tLast cycle when: ").append(s.getLastBackfillTime() == 0 ? "N/A" : ctime(s.getLastBackfillTime(), zone))
        .append('\n');
    b.append("\tLast cycle: ").append(f.getLastUs()).append('\n');
    b.append("\tMax cycle:  ").append(f.getMaxUs()).append('\n');
    if (f.getCount() > 0) {
      b.append("\tMean cycle: ").append(f.getTotalUs() / f.getCount()).append('\n');
    }
    b.append("\tLast depth cycle: ").append(f.getLastDepth()).append('\n');
    b.append("\tLast depth cycle (try sched): ").append(f.getLastDepth()).append('\n');
    if (f.getCount() > 0) {
      b.append("\tDepth Mean: ").append(f.getDepthTotal() / f.getCount()).append('\n');
      b.append("\tDepth Mean (try depth): ").append(f.getDepthTotal() / f.getCount()).append('\n');
    }
    b.append("\tLast queue length: ").append(f.getLastQueue()).append('\n');
    if (f.getCount() > 0) {
      b.append("\tQueue length mean: ").append(f.getQueueTotal() / f.getCount()).append('\n');
    }
    b.append("\tLast table size: 1\n");
    if (f.getCount() > 0) {
      b.append("\tMean table size: 1\n");
    }
    b.append('\n');
    b.append("Latency for 1000 calls to gettimeofday(): ").append(latency()).append(" microseconds\n\n");

    b.append("Remote Procedure Call statistics by message type\n");
    for (RpcStat t : sorted(s.getByTypeList(), sort)) {
      b.append(String.format(Locale.ROOT, "\t%-40s(%5d) count:%-6d ave_time:%-6d total_time:%d%n",
          t.getName(), t.getId(), t.getCount(), t.getTotalUs() / Math.max(1, t.getCount()), t.getTotalUs()));
    }
    b.append("\nRemote Procedure Call statistics by user\n");
    for (RpcStat u : sorted(s.getByUserList(), sort)) {
      b.append(String.format(Locale.ROOT, "\t%-16s(%8d) count:%-6d ave_time:%-6d total_time:%d%n",
          u.getName(), Integer.toUnsignedLong(u.getId()), u.getCount(),
          u.getTotalUs() / Math.max(1, u.getCount()), u.getTotalUs()));
    }
    b.append("\nPending RPC statistics\n\tNo pending RPCs\n");
    return b.toString();
  }

  /** By count (default), id (-i), total time (-t) or average time (-T), largest first but ids. */
  private static List<RpcStat> sorted(List<RpcStat> in, char sort) {
    List<RpcStat> out = new ArrayList<>(in);
    Comparator<RpcStat> c = switch (sort) {
      case 'i' -> Comparator.comparingLong(t -> Integer.toUnsignedLong(t.getId()));
      case 't' -> Comparator.comparingLong((RpcStat t) -> t.getTotalUs()).reversed();
      case 'T' -> Comparator.comparingLong((RpcStat t) -> t.getTotalUs() / Math.max(1, t.getCount())).reversed();
      default -> Comparator.comparingLong((RpcStat t) -> t.getCount()).reversed();
    };
    out.sort(c); // stable: equal ones keep the order they were first seen in
    return out;
  }

  /** "Mon Nov 23 23:02:13 2026 (1795474933)". */
  private static String ctime(long epoch, ZoneId zone) {
    return org.corral.cli.format.SlurmTimes.ctime(Instant.ofEpochSecond(epoch), zone) + " (" + epoch + ")";
  }

  /** What 1000 clock readings cost here, in microseconds, as sdiag measures it. */
  private static long latency() {
    long t0 = System.nanoTime();
    long sink = 0;
    for (int i = 0; i < 1000; i++) {
      sink += System.currentTimeMillis();
    }
    long us = (System.nanoTime() - t0) / 1000;
    return sink == 42 ? us + 1 : us;
  }
}

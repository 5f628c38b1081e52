package org.corral.cli.sprio;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.Table;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.ConfigRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.PriorityWeights;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * sprio: the multifactor breakdown of pending jobs' priorities, or the configured weights (-w),
 * laid out as Slurm's sprio does. Columns of factors whose weight is zero are left out of the
 * default formats (not of -l).
 */
public final class SprioCommand implements CliCommand {
  static final String LONG = "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T";
  static final String NORM_LONG = "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t";

  private static final Getopt GETOPT = new Getopt("hj::lM:no:p:S:u:vVw", List.of(
      new LongOpt("noheader", Arg.NONE, "h"),
      new LongOpt("jobs", Arg.OPTIONAL, "j"),
      new LongOpt("long", Arg.NONE, "l"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("norm", Arg.NONE, "n"),
      new LongOpt("format", Arg.REQUIRED, "o"),
      new LongOpt("partition", Arg.REQUIRED, "p"),
      new LongOpt("sort", Arg.REQUIRED, "S"),
      new LongOpt("user", Arg.REQUIRED, "u"),
      new LongOpt("users", Arg.REQUIRED, "u"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("weights", Arg.NONE, "w"),
      new LongOpt("federation", Arg.NONE, "federation"),
      new LongOpt("local", Arg.NONE, "local"),
      new LongOpt("sibling", Arg.NONE, "sibling"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("usage", Arg.NONE, "usage")));

  static final String USAGE = """
      Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]
         [--federation] [--local] [--sibling] [--usage] [-hlnvVw]""";

  private final UserDirectory users;

  public SprioCommand() {
    this(UserDirectory.system());
  }

  public SprioCommand(UserDirectory users) {
    this.users = users;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    Options o = new Options();
    o.format = cli.env().get("SPRIO_FORMAT");
    try {
      Getopt.Result parsed = GETOPT.parse(args);
      for (Getopt.Opt opt : parsed.options()) {
        String v = opt.value();
        switch (opt.key()) {
          case "h" -> o.header = false;
          case "j" -> {
            // -j's value is optional: "-j 12" leaves 12 as an operand, which then names the jobs
            String ids = v != null ? v : parsed.operands().isEmpty() ? null : parsed.operands().get(0);
            o.jobIds = ids == null ? null : parseIds(ids);
          }
          case "l" -> o.longFormat = true;
          case "n" -> o.norm = true;
          case "o" -> o.format = v;
          case "p" -> o.partitions = Set.of(v.split(","));
          case "S" -> o.sort = v;
          case "u" -> o.users = List.of(v.split(","));
          case "w" -> o.weights = true;
          case "V", "usage", "help" -> {
            return HelpText.info(cli, SprioCommand.class, opt.key(), USAGE + "\n");
          }
          default -> { } // -v, -M and federation options change nothing on one cluster
        }
      }
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"sprio --help\" for more information");
      return 1;
    } catch (NumberFormatException e) {
      cli.error("error: Invalid job id: " + e.getMessage());
      return 1;
    }

    PriorityWeights weights;
    List<JobInfo> jobs;
    try {
      Response conf = cli.controller().get().call(Request.newBuilder()
          .setConfig(ConfigRequest.getDefaultInstance()).build());
      weights = conf.getConfig().getPriorityWeights();
      if (!weights.getMultifactor()) {
        cli.err().println("You are not running a supported priority plugin");
        cli.err().println("(priority/basic).");
        cli.err().println("Only 'priority/multifactor' is supported.");
        return 1;
      }
      Response r = cli.controller().get().call(Request.newBuilder()
          .setJobInfo(JobInfoRequest.getDefaultInstance()).build());
      if (r.getErrorCode() != 0) {
        cli.error("error: " + SlurmError.messageFor(r.getErrorCode()));
        return 1;
      }
      jobs = r.getJobInfo().getJobsList();
    } catch (IOException e) {
      cli.err().println("Unable to contact slurm controller (connect failure)");
      return 1;
    }

    Set<Integer> uids = o.users == null ? Set.of()
        : users.uidsOf(o.users, u -> cli.error("error: Invalid user: " + u + "\n"));
    String format = o.format != null ? o.format : defaultFormat(weights, o);
    Table<PriorityRow> table = Table.ofPercent(format, PriorityColumns.ALL,
        c -> cli.error("error: Invalid job format specification: " + c));
    if (o.weights) {
      if (o.header) {
        cli.out().println(table.header());
      }
      cli.out().println(table.row(new PriorityRow(null, weights)));
      return 0;
    }
    List<PriorityRow> rows = new ArrayList<>();
    for (JobInfo j : jobs) {
      if (listed(j) && (o.jobIds == null || o.jobIds.contains(j.getJobId()))
          && (o.users == null || uids.contains(j.getUserId()))
          && (o.partitions == null || o.partitions.contains(j.getPartition()))) {
        rows.add(new PriorityRow(j, weights));
      }
    }
    if (o.jobIds != null && rows.isEmpty()) {
      cli.out().println("Unable to find jobs matching user/id(s) specified");
      return 0;
    }
    rows.sort(order(o.sort));
    if (o.header) {
      cli.out().println(table.header());
    }
    rows.forEach(r -> cli.out().println(table.row(r)));
    return 0;
  }

  /** Pending jobs whose priority was computed: not held, not waiting for a begin time or a dependency. */
  static boolean listed(JobInfo j) {
    if (j.getState() != JobState.PENDING || j.getPriority() == 0 || !j.hasPriorityFactors()) {
      return false;
    }
    return switch (j.getStateReason()) {
      // an array's pending tasks held back by its throttle are not listed either (as observed)
      case "BeginTime", "Dependency", "DependencyNeverSatisfied", "JobArrayTaskLimit" -> false;
      default -> true;
    };
  }

  /** Slurm's default layout, leaving out the factors whose weight is zero. */
  static String defaultFormat(PriorityWeights w, Options o) {
    if (o.longFormat) {
      return o.norm ? NORM_LONG : LONG;
    }
    StringBuilder f = new StringBuilder("%.15i %9r ");
    if (o.users != null) {
      f.append("%.8u ");
    }
    String pre = o.norm ? "%10" : "%.10";
    char[] letters = {'a', 'b', 'f', 'j', 'p', 'q'};
    long[] weights = {w.getAge(), w.getAssoc(), w.getFairshare(), w.getJobSize(), w.getPartition(), w.getQos()};
    f.append(o.norm ? "%10y " : "%.10Y %.10S ");
    for (int i = 0; i < letters.length; i++) {
      if (weights[i] != 0) {
        f.append(pre).append(o.norm ? letters[i] : Character.toUpperCase(letters[i])).append(' ');
      }
    }
    if (!w.getTresMap().isEmpty()) {
      f.append(o.norm ? "%20t " : "%20T ");
    }
    return f.substring(0, f.length() - 1);
  }

  private static List<Integer> parseIds(String v) {
    List<Integer> ids = new ArrayList<>();
    for (String s : v.split(",")) {
      try {
        ids.add(Integer.parseUnsignedInt(s.trim()));
      } catch (NumberFormatException e) {
        throw new NumberFormatException(s);
      }
    }
    return ids;
  }

  private static final Map<Character, Function<PriorityRow, Comparable<?>>> SORT_KEYS = Map.ofEntries(
      Map.entry('i', r -> Integer.toUnsignedLong(r.job().getJobId())),
      Map.entry('r', r -> r.job().getPartition()),
      Map.entry('u', r -> r.job().getUserName()),
      Map.entry('y', r -> Integer.toUnsignedLong(r.job().getPriority())),
      Map.entry('Y', r -> Integer.toUnsignedLong(r.job().getPriority())),
      Map.entry('a', r -> r.job().getPriorityFactors().getAge()),
      Map.entry('A', r -> r.job().getPriorityFactors().getAge()),
      Map.entry('f', r -> r.job().getPriorityFactors().getFairshare()),
      Map.entry('F', r -> r.job().getPriorityFactors().getFairshare()),
      Map.entry('j', r -> r.job().getPriorityFactors().getJobSize()),
      Map.entry('J', r -> r.job().getPriorityFactors().getJobSize()),
      Map.entry('p', r -> r.job().getPriorityFactors().getPartition()),
      Map.entry('P', r -> r.job().getPriorityFactors().getPartition()),
      Map.entry('q', r -> r.job().getPriorityFactors().getQos()),
      Map.entry('Q', r -> r.job().getPriorityFactors().getQos()),
      Map.entry('N', r -> r.job().getNice()));

  /** -S: letters, each optionally after + or -; the default is by job id. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Comparator<PriorityRow> order(String sort) {
    Comparator<PriorityRow> c = null;
    for (String key : (sort == null ? "i" : sort).split(",")) {
      String k = key.trim();
      boolean desc = k.startsWith("-");
      if (k.startsWith("-") || k.startsWith("+")) {
        k = k.substring(1);
      }
      if (k.isEmpty() || !SORT_KEYS.containsKey(k.charAt(0))) {
        continue;
      }
      Function<PriorityRow, Comparable> f = (Function) SORT_KEYS.get(k.charAt(0));
      Comparator<PriorityRow> one = Comparator.comparing(f);
      c = c == null ? (desc ? one.reversed() : one) : c.thenComparing(desc ? one.reversed() : one);
    }
    Comparator<PriorityRow> byId = Comparator.comparingLong(r -> Integer.toUnsignedLong(r.job().getJobId()));
    return c == null ? byId : c.thenComparing(byId);
  }

  static final class Options {
    String format;
    String sort;
    boolean header = true;
    boolean longFormat;
    boolean norm;
    boolean weights;
    List<Integer> jobIds;
    List<String> users;
    Set<String> partitions;
  }
}

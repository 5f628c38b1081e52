package org.corral.cli.sreport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.LocalCluster;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.sreport.ReportTable.Cell;
import org.corral.cli.sreport.ReportTable.Field;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.HelpText;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.UsageReportReply;
import org.corral.protocol.msg.UsageReportRequest;

/**
 * sreport: usage reports from slurmdbd's rollups, printed as Slurm 22.05's sreport prints them:
 * cluster Utilization, AccountUtilizationByUser, UserUtilizationByAccount (and the WCKey
 * reports, empty: Corral keeps no wckeys), user TopUsage and job SizesByAccount; -t units,
 * start=/end=, format=, -n/-p/-P, the banner. With no command, commands are read from stdin.
 */
public final class SreportCommand implements CliCommand {
  static final String VERSION = org.corral.common.Version.TEXT;
  private static final String BANNER = "-".repeat(80) + "\n";
  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

  private static final Getopt GETOPT = new Getopt("ahM:npPQt:T:vV", List.of(
      new LongOpt("all_clusters", Arg.NONE, "a"),
      new LongOpt("cluster", Arg.REQUIRED, "M"),
      new LongOpt("federation", Arg.NONE, "federation"),
      new LongOpt("help", Arg.NONE, "h"),
      new LongOpt("local", Arg.NONE, "local"),
      new LongOpt("noheader", Arg.NONE, "n"),
      new LongOpt("parsable", Arg.NONE, "p"),
      new LongOpt("parsable2", Arg.NONE, "P"),
      new LongOpt("quiet", Arg.NONE, "Q"),
      new LongOpt("tres", Arg.REQUIRED, "T"),
      new LongOpt("usage", Arg.NONE, "h"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V")));

  private final UnaryOperator<String> properNames;
  private final java.util.function.Supplier<java.io.InputStream> stdin;

  public SreportCommand() {
    this(org.corral.cli.Caller.thisProcess());
  }

  /** An sreport reading commands from the caller's stdin when none is given. */
  public SreportCommand(org.corral.cli.Caller caller) {
    this(SreportCommand::gecos, caller.stdin());
  }

  /**
   * @param properNames a login's "Proper Name" (its passwd GECOS up to the first comma)
   * @param stdin where commands come from when none is given
   */
  SreportCommand(UnaryOperator<String> properNames, java.util.function.Supplier<java.io.InputStream> stdin) {
    this.properNames = properNames;
    this.stdin = stdin;
  }

  /** Settings the options and the interactive commands change. */
  private static final class Settings {
    TimeFormat time = TimeFormat.MINUTES;
    ReportTable.Mode mode = ReportTable.Mode.FIXED;
    boolean header = true;
    boolean allClusters;
    List<String> clusters = new ArrayList<>();
  }

  @Override
  public int run(List<String> args, Cli cli) {
    Settings s = new Settings();
    Getopt.Result parsed;
    try {
      parsed = GETOPT.parse(args);
    } catch (Getopt.GetoptException e) {
      cli.err().println("sreport: " + e.getMessage());
      cli.err().println("Try \"sreport --help\" for more information");
      return 1;
    }
    for (Getopt.Opt o : parsed.options()) {
      switch (o.key()) {
        case "a" -> s.allClusters = true;
        case "M" -> s.clusters = Arrays.asList(o.value().split(","));
        case "h" -> {
          return help(cli);
        }
        case "n" -> s.header = false;
        case "p" -> s.mode = ReportTable.Mode.PARSABLE;
        case "P" -> s.mode = ReportTable.Mode.PARSABLE2;
        case "t" -> setTime(s, o.value(), cli);
        case "T" -> {
          if (!tres(o.value(), cli)) {
            return 1;
          }
        }
        case "V" -> {
          cli.out().println(VERSION);
          return 0;
        }
        default -> { } // -Q, -v, --local, --federation: nothing to change here
      }
    }
    if (!parsed.operands().isEmpty()) {
      return command(parsed.operands(), s, cli);
    }
    int rc = 0;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(stdin.get(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        List<String> words = Arrays.stream(line.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
        if (words.isEmpty()) {
          continue;
        }
        if (TimeFormat.matches(words.get(0), "exit", 4) || TimeFormat.matches(words.get(0), "quit", 4)) {
          break;
        }
        rc = command(words, s, cli);
      }
    } catch (IOException e) {
      return 1;
    }
    return rc;
  }

  private static void setTime(Settings s, String value, Cli cli) {
    TimeFormat t = TimeFormat.parse(value);
    if (t == null) {
      cli.err().print("unknown time format " + value);
      cli.err().flush();
    } else {
      s.time = t;
    }
  }

  /** -T: only CPUs are rolled up. */
  private static boolean tres(String value, Cli cli) {
    boolean cpu = false;
    boolean other = false;
    for (String t : value.split(",")) {
      if (t.equalsIgnoreCase("cpu")) {
        cpu = true;
      } else if (!t.isEmpty()) {
        other = true;
      }
    }
    if (other) {
      cli.err().println(cpu || value.equalsIgnoreCase("ALL")
          ? "sreport: error: Corral's slurmdbd rolls up CPU usage only; -T takes cpu"
          : "sreport: fatal: No valid TRES given");
      return false;
    }
    return true;
  }

  private static int help(Cli cli) {
    try {
      return HelpText.print(cli, SreportCommand.class, "help.txt", "sreport");
    } catch (CommandFailure e) {
      e.lines().forEach(cli.err()::println);
      return 1;
    }
  }

  private int command(List<String> words, Settings s, Cli cli) {
    String w = words.get(0);
    List<String> rest = words.subList(1, words.size());
    if (TimeFormat.matches(w, "cluster", 2) || TimeFormat.matches(w, "job", 1) || TimeFormat.matches(w, "user", 1)
        || TimeFormat.matches(w, "reservation", 2)) {
      if (rest.isEmpty()) {
        cli.err().println("too few arguments for keyword:" + w);
        return 1;
      }
      return report(ReportOptions.lower(w).charAt(0) == 'c' ? "cluster" : ReportOptions.lower(w).charAt(0) == 'j'
          ? "job" : ReportOptions.lower(w).charAt(0) == 'u' ? "user" : "reservation", rest, s, cli);
    }
    if (TimeFormat.matches(w, "help", 2)) {
      return help(cli);
    }
    if (TimeFormat.matches(w, "version", 4)) {
      cli.out().println(VERSION);
      return 0;
    }
    if (TimeFormat.matches(w, "time", 4) && !rest.isEmpty()) {
      setTime(s, rest.get(0), cli);
      return 0;
    }
    if (TimeFormat.matches(w, "parsable2", 9)) {
      s.mode = ReportTable.Mode.PARSABLE2;
      return 0;
    }
    if (TimeFormat.matches(w, "parsable", 8)) {
      s.mode = ReportTable.Mode.PARSABLE;
      return 0;
    }
    if (TimeFormat.matches(w, "nonparsable", 4)) {
      s.mode = ReportTable.Mode.FIXED;
      return 0;
    }
    if (TimeFormat.matches(w, "noheader", 3)) {
      s.header = false;
      return 0;
    }
    if (TimeFormat.matches(w, "quiet", 4) || TimeFormat.matches(w, "verbose", 4)) {
      return 0;
    }
    cli.err().println("invalid keyword: " + w);
    return 1;
  }

  /** What a report prints and from what. */
  private enum Kind {
    UTILIZATION("Cluster Utilization", false), ACCOUNT_USER("Cluster/Account/User Utilization", true),
    USER_ACCOUNT("Cluster/User/Account Utilization", true), WCKEY_USER("Cluster/WCKey/User Utilization", true),
    USER_WCKEY("Cluster/User/WCKey Utilization", true), TOP("Top %d Users", true), SIZES("Job Sizes", true);

    final String title;
    final boolean secs;

    Kind(String title, boolean secs) {
      this.title = title;
      this.secs = secs;
    }
  }

  private static boolean named(String w, String word, int n) {
    return w.length() >= n && w.regionMatches(true, 0, word, 0, n);
  }

  private int report(String type, List<String> words, Settings s, Cli cli) {
    String name = words.get(0);
    Kind kind = switch (type) {
      case "cluster" -> named(name, "AccountUtilizationByUser", 1) || named(name, "AU", 2) ? Kind.ACCOUNT_USER
          : named(name, "UserUtilizationByAccount", 18) || named(name, "UA", 2) ? Kind.USER_ACCOUNT
          : named(name, "UserUtilizationByWckey", 18) || named(name, "UW", 2) ? Kind.USER_WCKEY
          : named(name, "Utilization", 2) ? Kind.UTILIZATION
          : named(name, "WCKeyUtilizationByUser", 1) || named(name, "WU", 2) ? Kind.WCKEY_USER : null;
      case "user" -> named(name, "TopUsage", 1) ? Kind.TOP : null;
      case "job" -> name.equalsIgnoreCase("SizesByAccount") ? Kind.SIZES : null;
      default -> null;
    };
    if (kind == null) {
      if (type.equals("job") && (name.equalsIgnoreCase("SizesByAccountAndWckey") || name.equalsIgnoreCase("SizesByWckey"))
          || type.equals("reservation")) {
        cli.err().println("sreport: error: " + type + " " + name + " is not part of Corral's sreport yet");
        return 1;
      }
      cli.err().println("Not valid report " + name);
      cli.err().println(switch (type) {
        case "cluster" -> "Valid cluster reports are, \"AccountUtilizationByUser\", \"UserUtilizationByAccount\","
            + " \"UserUtilizationByWckey\", \"Utilization\", and \"WCKeyUtilizationByUser\"";
        case "user" -> "Valid user reports are, \"Top\"";
        default -> "Valid job reports are, \"SizesByAccount, SizesByAccountAndWcKey, and  SizesByWckey\"";
      });
      return 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    ZoneId zone = cli.clock().getZone();
    ReportOptions o = ReportOptions.parse(words.subList(1, words.size()), now, zone, s.allClusters);
    o.errors.forEach(cli.err()::println);
    if (o.clusters.isEmpty()) {
      o.clusters.addAll(s.clusters);
    }
    UsageReportReply usage;
    List<AcctAssoc> assocs = List.of();
    try {
      var channel = cli.accounting().get();
      Response r = channel.call(Request.newBuilder().setUsageReport(UsageReportRequest.newBuilder()
          .addAllClusters(o.allClusters ? List.of() : o.clusters.isEmpty() ? LocalCluster.of(cli.env()) : o.clusters)
          .setAllClusters(o.allClusters).setStart(o.start).setEnd(o.end).setJobSizes(kind == Kind.SIZES)).build());
      if (r.getErrorCode() != 0) {
        cli.error("error: " + r.getErrorMessage());
        return 1;
      }
      usage = r.getUsageReport();
      List<String> reported = java.util.stream.Stream.concat(
          usage.getClustersList().stream().map(org.corral.protocol.msg.ClusterUsage::getCluster),
          usage.getJobSizesList().stream().map(org.corral.protocol.msg.JobSizeUsage::getCluster)).distinct().toList();
      if ((kind == Kind.ACCOUNT_USER || kind == Kind.SIZES) && !reported.isEmpty()) {
        Response a = channel.call(Request.newBuilder().setAssocSnapshot(AssocSnapshotRequest.newBuilder()
            .setCluster(reported.size() == 1 ? reported.get(0) : "")).build());
        if (a.getErrorCode() != 0) {
          cli.error("error: " + a.getErrorMessage());
          return 1;
        }
        assocs = a.getAssocSnapshot().getAssocsList();
      }
    } catch (IOException | UncheckedIOException e) {
      cli.error("error: Problem talking to the database: " + e.getMessage());
      return 1;
    }
    List<Field> available = fields(kind, o, usage, s.time);
    List<String> defaults = switch (kind) {
      case UTILIZATION -> List.of("cluster", "allocated", "down", "planneddown", "idle", "planned", "reported");
      case ACCOUNT_USER -> List.of("cluster", "accounts", "login", "proper", "used", "energy");
      case USER_ACCOUNT, TOP -> List.of("cluster", "login", "proper", "accounts", "used", "energy");
      case WCKEY_USER -> List.of("cluster", "wckey", "login", "proper", "used");
      case USER_WCKEY -> List.of("cluster", "login", "proper", "wckey", "used");
      case SIZES -> available.stream().map(Field::key).toList();
    };
    List<Field> chosen = new ArrayList<>();
    boolean badField = false;
    if (o.format.isEmpty() || kind == Kind.SIZES) {
      for (String k : defaults) {
        available.stream().filter(f -> f.key().equals(k)).findFirst().ifPresent(chosen::add);
      }
    } else {
      for (String f : o.format) {
        Field field = field(available, f);
        if (field == null) {
          cli.err().println(" Unknown field '" + f + "'");
          badField = true;
        } else {
          chosen.add(field);
        }
      }
    }
    long period = o.end - o.start;
    StringBuilder out = new StringBuilder();
    if (s.header) {
      String title = (kind == Kind.TOP ? String.format(kind.title, o.topCount) : kind.title) + " "
          + iso(o.start, zone) + " - " + iso(o.end - 1, zone) + (kind.secs ? " (" + period + " secs)" : "");
      String units = kind == Kind.SIZES
          ? (o.printJobCount ? "Units are in number of jobs ran" : "Time reported in " + s.time.label)
          : "Usage reported in " + (s.time == TimeFormat.PERCENT ? "" : "CPU ") + s.time.label;
      out.append(BANNER).append(title).append('\n').append(units).append('\n').append(BANNER);
    }
    List<Map<String, Cell>> rows = switch (kind) {
      case UTILIZATION -> Reports.utilization(usage, period);
      case ACCOUNT_USER -> Reports.accountsByUser(usage, assocs, o, properNames);
      case USER_ACCOUNT -> Reports.usersByAccount(usage, o, properNames);
      case TOP -> Reports.topUsage(usage, o, properNames);
      case SIZES -> Reports.jobSizes(usage, assocs, o);
      case WCKEY_USER, USER_WCKEY -> List.<Map<String, Cell>>of();
    };
    ReportTable table = new ReportTable(chosen, s.mode, s.header, s.time);
    rows.forEach(table::add);
    out.append(table.render());
    cli.out().print(out);
    cli.out().flush();
    return o.failed || badField ? 1 : 0;
  }

  private static String iso(long t, ZoneId zone) {
    return ISO.format(Instant.ofEpochSecond(t).atZone(zone));
  }

  /** A format= word: a field name's leading letters, then optionally %WIDTH. */
  private static Field field(List<Field> available, String word) {
    String name = word;
    Integer width = null;
    int pct = word.indexOf('%');
    if (pct >= 0) {
      name = word.substring(0, pct);
      try {
        width = Integer.parseInt(word.substring(pct + 1));
      } catch (NumberFormatException e) {
        width = null;
      }
    }
    for (Field f : available) {
      if (TimeFormat.matches(name, f.key(), MIN_LETTERS.getOrDefault(f.key(), 1))
          || f.key().equals("planned") && TimeFormat.matches(name, "reserved", 3)) {
        return width == null || f.usage() || width == 0 ? f : f.withWidth(width);
      }
    }
    return null;
  }

  /** How many letters of each field name sreport needs. */
  private static final Map<String, Integer> MIN_LETTERS = Map.of("accounts", 1, "allocated", 2, "cluster", 2,
      "count", 2, "planneddown", 2, "planned", 3, "proper", 1, "reported", 3, "used", 1, "energy", 1);

  private static List<Field> fields(Kind kind, ReportOptions o, UsageReportReply usage, TimeFormat time) {
    return switch (kind) {
      case UTILIZATION -> List.of(new Field("cluster", "Cluster", 9, false),
          new Field("allocated", "Allocated", 8, true), new Field("count", "TRES Count", 10, false),
          new Field("down", "Down", 8, true), new Field("idle", "Idle", 8, true),
          new Field("overcommitted", "Over Comm", 8, true), new Field("planneddown", "PLND Down", 8, true),
          new Field("planned", "Planned", 8, true), new Field("reported", "Reported", 8, true));
      case ACCOUNT_USER, USER_ACCOUNT, TOP, WCKEY_USER, USER_WCKEY -> List.of(
          new Field("accounts", "Account", kind == Kind.ACCOUNT_USER && o.tree ? -20 : 15, false),
          new Field("cluster", "Cluster", 9, false), new Field("login", "Login", 9, false),
          new Field("proper", "Proper Name", 15, false), new Field("used", "Used", 8, true),
          new Field("energy", "Energy", 8, true), new Field("wckey", "WCKey", 15, false));
      case SIZES -> {
        List<Field> f = new ArrayList<>(List.of(new Field("cluster", "Cluster", 9, false),
            new Field("account", "Account", 9, false)));
        List<Integer> bounds = Reports.bounds(o, usage);
        List<String> bins = Reports.binNames(bounds, o.individual);
        for (int i = 0; i < bins.size(); i++) {
          f.add(new Field("bin" + i, bins.get(i), time.combined() && !o.printJobCount ? 20 : 13, false));
        }
        f.add(new Field("percent", "% of cluster", 12, false));
        yield f;
      }
    };
  }

  private static final Map<String, String> GECOS = new HashMap<>();

  /** The passwd GECOS of a login up to its first comma ("" if none). */
  static synchronized String gecos(String login) {
    if (login.isEmpty()) {
      return "";
    }
    return GECOS.computeIfAbsent(login, l -> {
      try {
        for (String line : Files.readAllLines(Path.of("/etc/passwd"))) {
          String[] f = line.split(":", -1);
          if (f.length > 4 && f[0].equals(l)) {
            int comma = f[4].indexOf(',');
            return comma < 0 ? f[4] : f[4].substring(0, comma);
          }
        }
      } catch (IOException e) {
        return "";
      }
      return "";
    });
  }
}

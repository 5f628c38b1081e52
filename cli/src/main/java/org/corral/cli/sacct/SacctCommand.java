package org.corral.cli.sacct;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.JsonOutput;
import org.corral.cli.format.YamlOutput;
import org.corral.cli.format.LocalCluster;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.HelpText;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.dataparser.AcctJson;
import org.corral.protocol.dataparser.Envelope;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.dataparser.JsonWriter;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * sacct: jobs and steps as slurmdbd keeps them, printed as Slurm 22.05's sacct prints them. The
 * selection goes to slurmdbd (users, accounts, partitions, names, job ids, states in the time
 * window, nodes); the time window's defaults, which lines print (steps, -X, -j 12.batch), their
 * order and every value's form are decided here.
 */
public final class SacctCommand implements CliCommand {
  static final String VERSION = org.corral.common.Version.TEXT;

  private final UserDirectory users;
  private final int callerUid;

  public SacctCommand() {
    this(UserDirectory.system(), currentUid());
  }

  public SacctCommand(UserDirectory users, int callerUid) {
    this.users = users;
    this.callerUid = callerUid;
  }

  private static int currentUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
  }

  @Override
  public int run(List<String> args, Cli cli) {
    long now = cli.clock().instant().getEpochSecond();
    ZoneId zone = cli.clock().getZone();
    SacctOptions o;
    try {
      o = SacctOptions.parse(args, cli.env(), now, zone, callerUid, users);
    } catch (SacctOptions.Refused r) {
      r.lines.forEach(cli.err()::println);
      return 1;
    }
    switch (o.help()) {
      case HELP -> {
        return resource(cli, "help.txt");
      }
      case USAGE -> {
        return resource(cli, "usage.txt");
      }
      case FIELDS -> {
        cli.out().print(helpFormat());
        return 0;
      }
      case VERSION -> {
        cli.out().println(VERSION);
        return 0;
      }
      default -> { }
    }
    if (o.json() || o.yaml()) {
      return document(args, o, cli, now);
    }
    if (o.verbose() > 0) {
      cli.err().println("sacct: Jobs " + (o.stateNames().isEmpty() ? "Eligible" : String.join(",", o.stateNames()))
          + " in the time window from " + ctime(o.start(), zone) + " to " + ctime(o.end(), zone));
    }
    Printer printer = new Printer(o.fields(), o.delimiter(), o.trailingDelimiter());
    Row.Context ctx = new Row.Context(now, zone, o.units());
    StringBuilder out = new StringBuilder();
    if (o.header()) {
      out.append(printer.header());
    }
    // Printed page by page as slurmdbd sends them (in submission order): the first lines come at
    // once and a million jobs never sit in memory together.
    try {
      query(o, cli, page -> {
        for (Row r : lines(page, o, ctx)) {
          out.append(printer.row(r));
        }
        cli.out().print(out);
        out.setLength(0);
      });
    } catch (IOException | UncheckedIOException e) {
      cli.out().print(out);
      cli.error("error: Problem talking to the database: " + e.getMessage());
      return 1;
    } catch (QueryFailed e) {
      cli.out().print(out);
      cli.error("error: " + e.getMessage());
      return 1;
    }
    cli.out().print(out);
    return 0;
  }

  /**
   * sacct --json and --yaml: the selected jobs with their steps (none with -X) in data_parser
   * v0.0.42's layout, the shape of GET /slurmdb/v0.0.42/jobs, through the mapping slurmrestd uses
   * ({@link AcctJson}), then {@code meta}, {@code errors} (slurmdbd's refusal or a lost
   * connection, exit 1) and {@code warnings}. JSON goes out page by page as slurmdbd sends them
   * and, as Slurm's sacct, ends without a newline after the closing brace; YAML is written once
   * the document is whole ({@link YamlOutput}, loaded only then).
   */
  private int document(List<String> args, SacctOptions o, Cli cli, long now) {
    IntFunction<String> userName = uid -> users.nameOf(uid).orElse(Integer.toUnsignedString(uid));
    JsonWriter w = o.yaml() ? null : new JsonWriter(cli.out(), true).beginObject().key("jobs").beginArray();
    JsonArray jobs = new JsonArray();
    JsonArray errors = new JsonArray();
    try {
      query(o, cli, page -> {
        for (AcctJob j : selected(page, o)) {
          JsonObject job = AcctJson.job(j, !o.noSteps(), userName, now);
          if (w == null) {
            jobs.add(job);
          } else {
            w.value(job);
          }
        }
        if (w != null) {
          w.flush();
        }
      });
    } catch (IOException | UncheckedIOException e) {
      errors.add(Envelope.error(String.valueOf(e.getMessage()), SlurmError.DB_CONNECTION.code(),
          SlurmError.DB_CONNECTION.message(), "slurmdb_jobs_get"));
    } catch (QueryFailed e) {
      errors.add(Envelope.error(e.getMessage(), e.code, SlurmError.messageFor(e.code), "slurmdb_jobs_get"));
    }
    List<String> argv = new ArrayList<>(List.of(cli.program()));
    argv.addAll(args);
    JsonObject meta = JsonOutput.meta(argv, cli.env().getOrDefault("USER", ""),
        String.join(",", LocalCluster.of(cli.env())), "accounting_storage/slurmdbd");
    if (w == null) {
      JsonObject doc = new JsonObject().set("jobs", jobs).set("meta", meta).set("errors", errors)
          .set("warnings", new JsonArray());
      cli.out().print(YamlOutput.of(doc));
    } else {
      w.endArray();
      w.key("meta").value(meta);
      w.key("errors").value(errors);
      w.key("warnings").beginArray().endArray();
      w.endObject().flush();
    }
    cli.out().flush();
    return errors.isEmpty() ? 0 : 1;
  }

  private static final class QueryFailed extends Exception {
    private static final long serialVersionUID = 1L;
    final int code;

    QueryFailed(int code, String message) {
      super(message);
      this.code = code;
    }
  }

  /** Asks slurmdbd page by page, handing each page over as it comes. */
  private void query(SacctOptions o, Cli cli, java.util.function.Consumer<List<AcctJob>> pages)
      throws IOException, QueryFailed {
    if (!o.stateNames().isEmpty() && o.states().isEmpty()) {
      return; // only states Corral never records (RESIZING, REVOKED)
    }
    JobQueryRequest.Builder q = JobQueryRequest.newBuilder()
        .addAllJobIds(o.jobs().stream().map(JobSelector::text).toList())
        .addAllUserIds(o.users())
        .setAllUsers(o.allUsers())
        .addAllAccounts(o.accounts())
        .addAllPartitions(o.partitions())
        .addAllStates(o.states())
        .addAllNames(o.names())
        .setStart(o.start())
        .setEnd(o.end())
        .addAllClusters(o.clusters().isEmpty() && !o.allClusters() ? LocalCluster.of(cli.env()) : o.clusters())
        .setAllClusters(o.allClusters())
        .addAllNodeList(o.nodes())
        .setDuplicates(o.duplicates());
    var channel = cli.accounting().get();
    q.setPageSize(PAGE);
    while (true) {
      Response r = channel.call(Request.newBuilder().setJobQuery(q).build());
      if (r.getErrorCode() != 0) {
        throw new QueryFailed(r.getErrorCode(), r.getErrorMessage());
      }
      pages.accept(r.getJobQuery().getJobsList());
      if (!r.getJobQuery().getMore()) {
        return;
      }
      org.corral.protocol.JobQueryPages.after(q, r.getJobQuery());
    }
  }

  /** Jobs asked of slurmdbd at a time. */
  private static final int PAGE = 1000;

  /**
   * The lines to print, in Slurm's order (by submit time; an array's tasks after the other jobs
   * submitted in the same second). Without -j only jobs that became eligible show; a job prints
   * whole unless -j named only some of its steps; its steps follow unless -X, or unless it has a
   * single step named as the job (an srun allocation's only step).
   */
  static List<Row> lines(List<AcctJob> jobs, SacctOptions o, Row.Context ctx) {
    List<Row> out = new ArrayList<>();
    for (AcctJob j : selected(jobs, o)) {
      List<JobSelector> naming = o.jobs().stream().filter(s -> s.matches(j)).toList();
      boolean whole = o.jobs().isEmpty() || naming.stream().anyMatch(s -> s.step() == null);
      if (whole) {
        out.add(new Row(j, null, ctx));
      }
      if (o.noSteps()) {
        continue;
      }
      for (AcctStep s : j.getStepsList()) {
        boolean named = whole || naming.stream().anyMatch(sel -> sel.step() != null && sel.matches(s));
        boolean onNodes = o.nodes().isEmpty()
            || (!s.getNodes().isEmpty() && Hostlist.expand(s.getNodes()).stream().anyMatch(o.nodes()::contains));
        if (named && onNodes) {
          AcctStep shown = s.getEndTime() == 0 && j.getEndTime() > 0
              ? s.toBuilder().setEndTime(j.getEndTime()).build() : s;
          out.add(new Row(j, shown, ctx));
        }
      }
    }
    return out;
  }

  /**
   * The jobs of a page that sacct shows, in its order (by submit time; an array's tasks after the
   * other jobs submitted in the same second, its record of still pending tasks after the started
   * ones, as Slurm 22.05 lists them): without -j those that became eligible, with -j
   * those it names; with -q those of the QOS given.
   */
  static List<AcctJob> selected(List<AcctJob> jobs, SacctOptions o) {
    List<AcctJob> sorted = new ArrayList<>(jobs);
    sorted.sort(Comparator.comparingLong(AcctJob::getSubmitTime)
        .thenComparingLong(j -> Integer.toUnsignedLong(j.getArrayJobId()))
        .thenComparing(j -> !j.getArrayTasks().isEmpty())
        .thenComparingInt(AcctJob::getArrayTaskId)
        .thenComparingLong(j -> Integer.toUnsignedLong(j.getJobId())));
    sorted.removeIf(j -> (o.jobs().isEmpty() ? j.getEligibleTime() <= 0
        : o.jobs().stream().noneMatch(s -> s.matches(j)))
        || (!o.qos().isEmpty() && !o.qos().contains(SacctField.qos(j).toLowerCase(Locale.ROOT))));
    return sorted;
  }

  /** --helpformat: the field names in columns of 20, four to a line. */
  static String helpFormat() {
    StringBuilder sb = new StringBuilder();
    List<SacctField> all = SacctField.ALL;
    for (int i = 0; i < all.size(); i++) {
      if ((i & 3) != 0) {
        sb.append(' ');
      } else if (i > 0) {
        sb.append('\n');
      }
      sb.append(String.format(Locale.ROOT, "%-19s", all.get(i).name()));
    }
    return sb.append('\n').toString();
  }

  private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss yyyy", Locale.ROOT);

  private static String ctime(long epoch, ZoneId zone) {
    return epoch == 0 ? "Epoch 0" : CTIME.format(ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(epoch), zone));
  }

  private static int resource(Cli cli, String name) {
    try {
      return HelpText.print(cli, SacctCommand.class, name, "sacct");
    } catch (CommandFailure e) {
      e.lines().forEach(cli.err()::println);
      return 1;
    }
  }
}

package org.corral.cli.squeue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.JobStates;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.format.Table;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** squeue: lists jobs, filtered, sorted and formatted as Slurm's squeue does. */
public final class SqueueCommand implements CliCommand {
  static final String DEFAULT_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
  static final String LONG_FORMAT = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";
  static final String START_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";

  private final UserDirectory users;

  public SqueueCommand() {
    this(UserDirectory.system());
  }

  /** A squeue resolving user names through the given directory. */
  public SqueueCommand(UserDirectory users) {
    this.users = users;
  }

  /** squeue --usage (also printed before the error for an operand). */
  static final String USAGE = """
      Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]
                    [-n name] [-o format] [-p partitions] [--qos qos]
                    [--reservation reservation] [--sort fields] [--start]
                    [--step step_id] [-t states] [-u user_name] [--usage]
                    [-L licenses] [-w nodes] [--federation] [--local] [--sibling]
      \t      [-ahjlrsv]
      """;

  @Override
  public int run(List<String> args, Cli cli) {
    SqueueOptions opts;
    try {
      opts = SqueueOptions.parse(args, cli.env());
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"squeue --help\" for more information");
      return 1;
    } catch (SqueueOptions.UsageException e) {
      if (e.getMessage().startsWith("Unrecognized option: ")) { // an operand: usage, then the error
        cli.out().print(USAGE);
        cli.out().flush();
        cli.error("error: " + e.getMessage());
        return 1;
      }
      for (String line : e.lines()) {
        cli.error("error: " + line);
      }
      return 1;
    }
    if (opts.info() != null) { // --usage, --help or --version: printed, nothing else done
      return HelpText.info(cli, SqueueCommand.class, opts.info(), USAGE);
    }
    if (opts.iterate() > 0) {
      return org.corral.cli.format.Iteration.repeat(opts.iterate(), cli, () -> list(opts, args, cli));
    }
    return list(opts, args, cli);
  }

  /** One listing. */
  private int list(SqueueOptions opts, List<String> args, Cli cli) {
    if (opts.steps() != null) {
      return StepListing.run(opts, cli);
    }
    Filter filter = new Filter(opts, users, cli);
    Table<JobRow> table;
    Comparator<JobRow> order;
    try {
      table = opts.longFormat() != null
          ? Table.ofLong(opts.longFormat(), JobColumns.ALL, 20,
              f -> cli.error("error: Invalid job format specification: " + f))
          : Table.ofPercent(opts.format(), JobColumns.ALL,
              c -> cli.error("error: Invalid job format specification: " + c));
      order = JobOrder.parse(opts.sort(), oneJob(opts));
    } catch (IllegalArgumentException e) {
      cli.error("error: Invalid job format specification: " + e.getMessage());
      return 1;
    }
    List<JobInfo> jobs;
    long lastUpdate;
    try {
      Response r = cli.controller().get().call(Request.newBuilder().setJobInfo(filter.request()).build());
      if (r.getErrorCode() == SlurmError.INVALID_JOB_ID.code()) { // none of the ids named is known (or visible)
        cli.err().println("slurm_load_jobs error: " + SlurmError.INVALID_JOB_ID.message());
        return 1;
      }
      if (r.getErrorCode() != 0) {
        cli.error("error: " + SlurmError.messageFor(r.getErrorCode()));
        return 1;
      }
      jobs = r.getJobInfo().getJobsList();
      lastUpdate = r.getJobInfo().getLastUpdate();
    } catch (IOException e) {
      cli.err().println("slurm_load_jobs error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    if (oneJob(opts) && jobs.stream().noneMatch(j -> j.getJobId() == opts.jobIds().get(0)
            || j.getArrayJobId() == opts.jobIds().get(0))) {
      // One id: Slurm's squeue loads that job alone, and reports it unknown.
      cli.err().println("slurm_load_jobs error: " + SlurmError.INVALID_JOB_ID.message());
      return 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    List<JobRow> rows = new ArrayList<>();
    for (JobInfo j : opts.expandArrays() || !opts.arrayTasks().isEmpty() ? expandArrays(jobs) : jobs) {
      if (filter.accepts(j)) {
        rows.add(new JobRow(j, now, cli.clock()));
      }
    }
    rows.sort(order);
    if (opts.json()) {
      List<String> argv = new ArrayList<>(List.of(cli.program()));
      argv.addAll(args);
      cli.out().print(org.corral.cli.format.JsonOutput.jobs(rows.stream().map(JobRow::job).toList(),
          nodesForJson(cli), lastUpdate, argv, cli.env().getOrDefault("USER", ""),
          String.join(",", org.corral.cli.format.LocalCluster.of(cli.env()))));
      return 0;
    }
    if (opts.header()) {
      if (opts.dateLine()) {
        cli.out().println(SlurmTimes.ctime(cli.clock().instant(), cli.clock().getZone()));
      }
      cli.out().println(table.header());
    }
    for (JobRow r : rows) {
      cli.out().println(table.row(r));
    }
    return 0;
  }

  /** -j with a single job id: Slurm's squeue loads that job alone (slurm_load_job). */
  private static boolean oneJob(SqueueOptions opts) {
    return opts.jobIds() != null && opts.jobIds().size() == 1 && opts.arrayTasks().isEmpty();
  }

  /** -r: an array's pending record becomes one row per pending task. */
  private static List<JobInfo> expandArrays(List<JobInfo> jobs) {
    List<JobInfo> out = new ArrayList<>();
    for (JobInfo j : jobs) {
      if (j.getArrayTasks().isEmpty()) {
        out.add(j);
        continue;
      }
      for (int task : org.corral.common.ArrayTasks.fromString(j.getArrayTasks()).ids()) {
        out.add(j.toBuilder().setArrayTasks("").setArrayTaskId(task).build());
      }
    }
    return out;
  }

  /** The selection squeue's filter options make. */
  private static final class Filter {
    private final SqueueOptions opts;
    private final Set<String> userNames = new HashSet<>();
    private final Set<Integer> uids = new HashSet<>();
    private final Set<String> nodes;

    Filter(SqueueOptions opts, UserDirectory users, Cli cli) {
      this.opts = opts;
      if (opts.users() != null) {
        uids.addAll(users.uidsOf(opts.users(), u -> cli.error("error: Invalid user: " + u + "\n")));
      }
      this.nodes = opts.nodes() == null ? null : new HashSet<>(opts.nodes());
    }

    /**
     * What to ask the controller for: one job (-j with one id, as Slurm's squeue loads it alone)
     * or the jobs of the users -u names; never fewer than {@link #accepts} takes.
     */
    JobInfoRequest request() {
      JobInfoRequest.Builder b = JobInfoRequest.newBuilder();
      if (oneJob(opts)) {
        b.addJobIds(opts.jobIds().get(0));
      } else if (opts.jobIds() == null && opts.arrayTasks().isEmpty() && !uids.isEmpty()) {
        b.addAllUserIds(uids);
      }
      return b.build();
    }

    boolean accepts(JobInfo j) {
      boolean task = j.getArrayJobId() != 0 && j.getArrayTasks().isEmpty()
          && opts.arrayTasks().contains(j.getArrayJobId() + "_" + j.getArrayTaskId());
      if (opts.jobIds() != null && !task && !opts.jobIds().contains(j.getJobId())
          && !(j.getArrayJobId() != 0 && opts.jobIds().contains(j.getArrayJobId()))) {
        return false;
      }
      if (opts.states() != null ? !opts.states().matches(j) : !JobStates.isActive(j)) {
        return false;
      }
      if (opts.users() != null && !uids.contains(j.getUserId()) && !userNames.contains(j.getUserName())) {
        return false;
      }
      if (opts.partitions() != null && !opts.partitions().contains(j.getPartition())) {
        return false;
      }
      if (opts.names() != null && !opts.names().contains(j.getName())) {
        return false;
      }
      if (opts.accounts() != null && !opts.accounts().contains(j.getAccount())) {
        return false;
      }
      if (opts.qos() != null
          && !opts.qos().contains(j.getQos().isEmpty() ? "normal" : j.getQos())) {
        return false;
      }
      if (nodes != null) {
        boolean any = !j.getNodes().isEmpty()
            && Hostlist.expand(j.getNodes()).stream().anyMatch(nodes::contains);
        if (!any) {
          return false;
        }
      }
      return true;
    }
  }

  /** The nodes, for --json's job_resources (sockets and cores); none when the controller does not answer. */
  private static List<org.corral.protocol.msg.NodeInfo> nodesForJson(Cli cli) {
    try {
      Response r = cli.controller().get().call(Request.newBuilder()
          .setNodeInfo(org.corral.protocol.msg.NodeInfoRequest.getDefaultInstance()).build());
      return r.getNodeInfo().getNodesList();
    } catch (IOException e) {
      return List.of();
    }
  }
}

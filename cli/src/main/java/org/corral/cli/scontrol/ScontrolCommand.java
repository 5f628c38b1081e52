package org.corral.cli.scontrol;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.submit.HelpText;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.ConfigRequest;
import org.corral.protocol.msg.HoldJobsRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoRequest;
import org.corral.protocol.msg.LicenseInfoRequest;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.ReservationInfoRequest;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.ShutdownRequest;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepInfoRequest;
import org.corral.protocol.StepIds;

/**
 * scontrol: show job/node/partition/hostnames/hostlist, ping, hold/uhold/release, update
 * (nodes), requeue/requeuehold, version.
 * Keywords may be abbreviated as Slurm allows (at least three letters, e.g. {@code sho}).
 */
public final class ScontrolCommand implements CliCommand {
  private static final Getopt GETOPT = new Getopt("adFhM:oQu:vV", List.of(
      new LongOpt("all", Arg.NONE, "a"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("details", Arg.NONE, "d"),
      new LongOpt("federation", Arg.NONE, "federation"),
      new LongOpt("future", Arg.NONE, "F"),
      new LongOpt("hide", Arg.NONE, "hide"),
      new LongOpt("local", Arg.NONE, "local"),
      new LongOpt("sibling", Arg.NONE, "sibling"),
      new LongOpt("uid", Arg.REQUIRED, "u"),
      new LongOpt("help", Arg.NONE, "h"),
      new LongOpt("oneliner", Arg.NONE, "o"),
      new LongOpt("quiet", Arg.NONE, "Q"),
      new LongOpt("usage", Arg.NONE, "h"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V")));

  private final UserDirectory users;
  private final Supplier<InputStream> stdin;
  private boolean oneLiner;
  private boolean details;
  /** -a/--all: Hidden partitions and those closed to the caller too. */
  private boolean all;
  /** -v: "last_update_time=..., records=N" before what show prints. */
  private int verbose;

  public ScontrolCommand() {
    this(org.corral.cli.Caller.thisProcess());
  }

  /** An scontrol reading commands from the caller's stdin. */
  public ScontrolCommand(org.corral.cli.Caller caller) {
    this(UserDirectory.system(), caller.stdin());
  }

  /** An scontrol naming users through the given directory. */
  public ScontrolCommand(UserDirectory users) {
    this(users, InputStream::nullInputStream);
  }

  /** An scontrol reading its commands from {@code stdin} when none is on its command line. */
  public ScontrolCommand(UserDirectory users, Supplier<InputStream> stdin) {
    this.users = users;
    this.stdin = stdin;
  }

  /** Signals an error already reported; the command exits 1. */
  private static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    Getopt.Result parsed;
    try {
      parsed = GETOPT.parse(args);
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"scontrol --help\" for more information");
      return 1;
    }
    for (Getopt.Opt o : parsed.options()) {
      switch (o.key()) {
        case "o" -> oneLiner = true;
        case "d" -> details = true;
        case "a" -> all = true;
        case "v" -> verbose++;
        case "Q" -> verbose = -1;
        case "V" -> {
          return HelpText.info(cli, ScontrolCommand.class, "V", null);
        }
        case "h" -> {
          return HelpText.info(cli, ScontrolCommand.class, "help", null);
        }
        default -> { }
      }
    }
    List<String> words = parsed.operands();
    if (words.isEmpty()) {
      return new InteractiveScontrol(this::command, this::setMode).run(stdin.get(), cli);
    }
    return command(words, cli);
  }

  /** Runs one command line's words; its exit status. */
  private int command(List<String> words, Cli cli) {
    try {
      return dispatch(words.get(0), words.subList(1, words.size()), cli);
    } catch (Failed e) {
      return 1;
    } catch (IOException e) { // reported where the call was made
      return 1;
    }
  }

  /** The interactive mode keywords (all, details, oneliner, quiet, verbose); whether the word is one. */
  private boolean setMode(String word) {
    switch (word.toLowerCase(Locale.ROOT)) {
      case "all" -> all = true;
      case "details" -> details = true;
      case "oneliner" -> oneLiner = true;
      case "quiet" -> verbose = -1;
      case "verbose" -> verbose = 1;
      default -> {
        return false;
      }
    }
    return true;
  }

  /** -v's line before a listing: when the controller's data last changed (Unknown for one job) and how many records came. */
  private void lastUpdate(Cli cli, long lastUpdate, int records) {
    if (verbose > 0) {
      cli.out().println("last_update_time=" + org.corral.cli.format.SlurmTimes.iso(lastUpdate, cli.clock().getZone(),
          "Unknown") + ", records=" + records);
    }
  }

  private int dispatch(String keyword, List<String> rest, Cli cli) throws Failed, IOException {
    if (is(keyword, "show", 3)) {
      if (rest.isEmpty()) {
        cli.err().println("too few arguments for keyword:" + keyword);
        return 1;
      }
      return show(rest.get(0), rest.size() > 1 ? rest.get(1) : null, keyword, cli);
    }
    if (is(keyword, "ping", 3)) {
      return ping(cli);
    }
    if (is(keyword, "takeover", 8)) {
      SlurmConfig cfg = replicated(cli);
      if (cfg == null) {
        cli.err().println("slurm_takeover error: " + SlurmError.messageFor(SlurmError.IN_STANDBY_USE_BACKUP.code()));
        return 1;
      }
      return ControllerPing.takeover(cli, cfg, rest);
    }
    if (is(keyword, "hold", 3) || is(keyword, "uhold", 3) || is(keyword, "release", 3)) {
      return hold(keyword.toLowerCase(Locale.ROOT), rest, cli);
    }
    if (is(keyword, "update", 1)) {
      if (!rest.isEmpty() && PartitionCommand.names(rest.get(0))) {
        return PartitionCommand.update(rest, cli);
      }
      return ReservationCommand.namesOne(rest) ? ReservationCommand.update(rest, cli) : UpdateCommand.run(rest, cli);
    }
    if (is(keyword, "create", 2) && !rest.isEmpty() && PartitionCommand.names(rest.get(0))) {
      return PartitionCommand.create(rest, cli);
    }
    if (is(keyword, "delete", 3) && !rest.isEmpty() && is(rest.get(0).replaceFirst("=.*", ""), "partitionname", 9)) {
      return PartitionCommand.delete(rest, cli);
    }
    if (is(keyword, "create", 2) || is(keyword, "delete", 3)) {
      return ReservationCommand.run(keyword.toLowerCase(Locale.ROOT).charAt(0) == 'c', rest, cli);
    }
    if (is(keyword, "listpids", 5)) {
      return PidCommands.listpids(rest, cli);
    }
    if (is(keyword, "pidinfo", 3)) {
      return PidCommands.pidinfo(rest, cli);
    }
    if (is(keyword, "completing", 2)) {
      return CompletingCommand.run(cli);
    }
    if (is(keyword, "reconfigure", 3)) {
      return ReconfigureCommand.run(cli);
    }
    if (is(keyword, "suspend", 2) || is(keyword, "resume", 3) || is(keyword, "top", 3)) {
      String k = keyword.toLowerCase(Locale.ROOT);
      return SuspendCommand.run(k.startsWith("su") ? "suspend" : k.startsWith("re") ? "resume" : "top", rest, cli);
    }
    if (keyword.equalsIgnoreCase("requeue") || keyword.equalsIgnoreCase("requeuehold")) {
      return RequeueCommand.run(keyword.toLowerCase(Locale.ROOT),
          keyword.equalsIgnoreCase("requeuehold"), rest, cli);
    }
    if (is(keyword, "shutdown", 8)) {
      call(cli, Request.newBuilder().setShutdown(ShutdownRequest.getDefaultInstance()).build(),
          "slurm_shutdown");
      return 0;
    }
    if (is(keyword, "write", 5) && !rest.isEmpty() && is(rest.get(0), "batch_script", 5)) {
      return BatchScriptCommand.run(rest.subList(1, rest.size()), cli);
    }
    if (is(keyword, "token", 5)) {
      return TokenCommand.run(rest, cli);
    }
    if (is(keyword, "version", 3)) {
      return HelpText.info(cli, ScontrolCommand.class, "V", null);
    }
    if (is(keyword, "help", 2)) {
      return HelpText.info(cli, ScontrolCommand.class, "help", null);
    }
    cli.err().println("invalid keyword: " + keyword);
    return 1;
  }

  /** Slurm's keyword match: a case-insensitive prefix of at least {@code min} letters. */
  private static boolean is(String word, String keyword, int min) {
    String w = word.toLowerCase(Locale.ROOT);
    return w.length() >= Math.min(min, keyword.length()) && keyword.startsWith(w);
  }

  private int show(String entity, String name, String keyword, Cli cli)
      throws Failed, IOException {
    if (is(entity, "jobs", 1) || is(entity, "jobid", 4)) {
      return showJobs(name, cli);
    }
    if (is(entity, "nodes", 1)) {
      return showNodes(name, cli);
    }
    if (is(entity, "config", 3)) {
      return showConfig(cli);
    }
    if (is(entity, "partitions", 1)) {
      return showPartitions(name, cli);
    }
    if (is(entity, "steps", 2)) {
      return showSteps(name, cli);
    }
    if (is(entity, "reservations", 3) || entity.toLowerCase(Locale.ROOT).startsWith("reservation=")) {
      int eq = entity.indexOf('=');
      return showReservations(eq >= 0 ? entity.substring(eq + 1) : name, cli);
    }
    if (is(entity, "licenses", 3)) {
      LicenseInfoRequest.Builder req = LicenseInfoRequest.newBuilder();
      if (name != null) {
        req.addNames(name);
      }
      LicenseText.print(call(cli, Request.newBuilder().setLicenseInfo(req).build(), "slurm_load_licenses")
          .getLicenseInfo().getLicensesList(), oneLiner, cli.out());
      return 0;
    }
    if (is(entity, "hostnames", 5)) {
      String list = name != null ? hostlistArgument(name, cli)
          : cli.env().getOrDefault("SLURM_NODELIST", cli.env().get("SLURM_JOB_NODELIST"));
      if (list == null || list.isEmpty()) {
        cli.err().println("scontrol: error: host list is empty"); // and exit 0, as the reference
        return 0;
      }
      Hostlist.expand(list).forEach(cli.out()::println);
      return 0;
    }
    if (is(entity, "hostlistsorted", 9) && name != null) {
      cli.out().println(Hostlist.compressSorted(Hostlist.expand(hostlistArgument(name, cli))));
      return 0;
    }
    if (is(entity, "hostlist", 5) && name != null) {
      cli.out().println(Hostlist.compress(Hostlist.expand(hostlistArgument(name, cli))));
      return 0;
    }
    cli.err().println("invalid entity:" + entity + " for keyword:" + keyword + " ");
    return 1;
  }

  /** A host list as given, or read from the file an absolute path names (names separated by commas or lines). */
  private static String hostlistArgument(String arg, Cli cli) throws Failed {
    if (!arg.startsWith("/")) {
      return arg;
    }
    try {
      return String.join(",", java.nio.file.Files.readString(cli.caller().resolve(arg)).strip().split("[,\\s]+"));
    } catch (IOException | RuntimeException e) {
      cli.err().println("scontrol: error: cannot read host list file " + arg);
      throw new Failed();
    }
  }

  private int showConfig(Cli cli) throws Failed, IOException {
    Response r = call(cli, Request.newBuilder().setConfig(ConfigRequest.getDefaultInstance()).build(),
        "slurm_load_ctl_conf");
    cli.out().print(ConfigText.of(r.getConfig().getEntriesList(), cli.clock().instant().getEpochSecond(),
        cli.clock().getZone()));
    cli.out().println();
    return ping(cli);
  }

  private int showJobs(String id, Cli cli) throws Failed, IOException {
    JobInfoRequest.Builder req = JobInfoRequest.newBuilder();
    int task = -1; // JOB_TASK: one task of an array
    if (id != null) {
      try {
        int under = id.indexOf('_');
        if (under > 0) {
          task = Integer.parseUnsignedInt(id.substring(under + 1));
        }
        req.addJobIds(Integer.parseUnsignedInt(under > 0 ? id.substring(0, under) : id));
      } catch (NumberFormatException e) {
        cli.err().println("scontrol_print_job error: " + SlurmError.INVALID_JOB_ID.message());
        return 1;
      }
    }
    Response r = call(cli, Request.newBuilder().setJobInfo(req).build(), "slurm_load_jobs");
    List<JobInfo> jobs = r.getJobInfo().getJobsList();
    lastUpdate(cli, id == null ? r.getJobInfo().getLastUpdate() : 0, jobs.size());
    if (task >= 0) {
      int t = task;
      jobs = jobs.stream().filter(j -> j.getArrayJobId() != 0 && j.getArrayTasks().isEmpty()
          && j.getArrayTaskId() == t).toList();
      if (jobs.isEmpty()) {
        cli.err().println("scontrol_print_job error: " + SlurmError.INVALID_JOB_ID.message());
        return 1;
      }
    }
    if (jobs.isEmpty()) {
      cli.out().println("No jobs in the system");
      return 0;
    }
    jobs = inListOrder(jobs);
    if (id != null) { // one job's records come from Slurm's id hash, newest first
      jobs = jobs.reversed();
    }
    long now = cli.clock().instant().getEpochSecond();
    for (JobInfo j : jobs) {
      cli.out().print(JobText.of(j, now, cli.clock().getZone(), details).render(oneLiner));
    }
    return 0;
  }

  /**
   * Jobs in the order of Slurm's job list: by id, except that an array's record of pending tasks
   * comes after its started tasks (each task that starts takes the record's place, and the
   * pending rest moves to a new record at the list's end).
   */
  static List<JobInfo> inListOrder(List<JobInfo> jobs) {
    java.util.Map<Integer, Long> lastTask = new java.util.HashMap<>();
    for (JobInfo j : jobs) {
      if (j.getArrayJobId() != 0 && j.getJobId() != j.getArrayJobId()) {
        lastTask.merge(j.getArrayJobId(), Integer.toUnsignedLong(j.getJobId()), Math::max);
      }
    }
    java.util.function.ToDoubleFunction<JobInfo> key = j -> {
      Long last = j.getJobId() == j.getArrayJobId() ? lastTask.get(j.getJobId()) : null;
      return last != null ? last + 0.5 : Integer.toUnsignedLong(j.getJobId());
    };
    return jobs.stream().sorted(java.util.Comparator.comparingDouble(key)).toList();
  }

  /** {@code show step [JOB[.STEP]]}: running steps, the batch step first as Slurm lists them. */
  private int showSteps(String id, Cli cli) throws Failed, IOException {
    StepInfoRequest.Builder req = StepInfoRequest.newBuilder();
    if (id != null) {
      int dot = id.indexOf('.');
      try {
        req.setJobId(Integer.parseUnsignedInt(dot < 0 ? id : id.substring(0, dot)));
        if (dot >= 0) {
          // Slurm 22.05 reads the step with strtol: "batch" or "extern" is step 0.
          String step = id.substring(dot + 1).replaceFirst("^(\\d*).*", "$1");
          id = id.substring(0, dot + 1) + (step.isEmpty() ? "0" : step);
          req.setStepId(StepIds.parse(step.isEmpty() ? "0" : step));
        }
      } catch (IllegalArgumentException e) {
        cli.err().println("Invalid job step id: " + id);
        return 1;
      }
    }
    Response r = call(cli, Request.newBuilder().setStepInfo(req).build(), "slurm_get_job_steps");
    List<StepInfo> steps = r.getStepInfo().getStepsList();
    if (req.hasStepId()) {
      steps = steps.stream().filter(st -> st.getStepId() == req.getStepId()).toList();
    }
    if (id == null) { // Slurm 22.05 lists no array task's steps here (squeue -s does)
      steps = steps.stream().filter(st -> st.getArrayJobId() == 0).toList();
    }
    if (steps.isEmpty()) {
      if (id == null) {
        cli.out().println("No job steps in the system");
        return 0;
      }
      cli.out().println("Job step " + (id.indexOf('.') < 0 ? id + "." : id) + " not found");
      return 1;
    }
    for (StepInfo s : steps) {
      cli.out().print(StepText.of(s, cli.clock().getZone()).render(oneLiner));
    }
    return 0;
  }

  private int showReservations(String name, Cli cli) throws Failed, IOException {
    List<ReservationInfo> all = call(cli, Request.newBuilder()
        .setReservationInfo(ReservationInfoRequest.getDefaultInstance()).build(), "slurm_load_reservations")
        .getReservationInfo().getReservationsList().stream()
        .filter(r -> name == null || r.getName().equals(name)).toList();
    if (all.isEmpty()) {
      cli.out().println(name == null ? "No reservations in the system" : "Reservation " + name + " not found");
      return name == null ? 0 : 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    for (ReservationInfo r : all) {
      cli.out().print(ReservationText.of(r, now, cli.clock().getZone()).render(oneLiner));
    }
    return 0;
  }

  private int showNodes(String name, Cli cli) throws Failed, IOException {
    Response r = call(cli, Request.newBuilder().setNodeInfo(NodeInfoRequest.getDefaultInstance()).build(),
        "slurm_load_node");
    List<NodeInfo> nodes = r.getNodeInfo().getNodesList();
    lastUpdate(cli, r.getNodeInfo().getLastUpdate(), nodes.size());
    List<NodeInfo> shown = name == null ? nodes : selectNodes(nodes, name);
    if (shown.isEmpty()) {
      cli.out().println(name == null ? "No nodes in the system" : "Node " + name + " not found");
      return name == null ? 0 : 1;
    }
    for (NodeInfo n : shown) {
      cli.out().print(NodeText.of(n, cli.clock().getZone(), users, details).render(oneLiner));
    }
    return 0;
  }

  private static List<NodeInfo> selectNodes(List<NodeInfo> nodes, String expr) {
    List<String> wanted = Hostlist.expand(expr);
    return nodes.stream().filter(n -> wanted.contains(n.getName())).toList();
  }

  private int showPartitions(String name, Cli cli) throws Failed, IOException {
    Response r = call(cli, Request.newBuilder()
        .setPartitionInfo(PartitionInfoRequest.newBuilder().setAll(all)).build(),
        "slurm_load_partitions");
    lastUpdate(cli, r.getPartitionInfo().getLastUpdate(), r.getPartitionInfo().getPartitionsCount());
    List<PartitionInfo> parts = r.getPartitionInfo().getPartitionsList().stream()
        .filter(p -> name == null || p.getName().equals(name)).toList();
    if (parts.isEmpty()) {
      cli.out().println(name == null ? "No partitions in the system"
          : "Partition " + name + " not found");
      return name == null ? 0 : 1;
    }
    Map<String, NodeInfo> byName = new LinkedHashMap<>();
    Response nodes = cli.controller().get().call(Request.newBuilder()
        .setNodeInfo(NodeInfoRequest.getDefaultInstance()).build());
    // PrivateData=nodes refuses the nodes, not the partitions: shown without what the nodes add
    nodes.getNodeInfo().getNodesList().forEach(n -> byName.put(n.getName(), n));
    for (PartitionInfo p : parts) {
      cli.out().print(PartitionText.of(p, byName).render(oneLiner));
    }
    return 0;
  }

  private int ping(Cli cli) {
    SlurmConfig cfg = replicated(cli);
    if (cfg != null) {
      return ControllerPing.ping(cli, cfg);
    }
    try {
      Response r = cli.controller().get().call(
          Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
      String role = r.getPing().getPrimary() ? "primary" : "backup";
      cli.out().println("Slurmctld(" + role + ") at " + r.getPing().getHost() + " is UP");
      return 0;
    } catch (IOException e) {
      cli.out().println("Slurmctld(primary) at " + controllerHost(cli) + " is DOWN");
      return 1;
    }
  }

  /** The configuration when it lists several controllers, else null. */
  private static SlurmConfig replicated(Cli cli) {
    try {
      SlurmConfig cfg = SlurmConfig.loadShared(SlurmConfig.defaultPath(cli.env()));
      return cfg.replicatedControllers() ? cfg : null;
    } catch (ConfigException e) {
      return null;
    }
  }

  private static String controllerHost(Cli cli) {
    try {
      return SlurmConfig.loadShared(SlurmConfig.defaultPath(cli.env())).controllerHost();
    } catch (ConfigException e) {
      return "localhost"; // no readable configuration: Slurm's own default controller
    }
  }

  private int hold(String keyword, List<String> ids, Cli cli) throws Failed, IOException {
    if (ids.isEmpty()) {
      cli.err().println("too few arguments for keyword:" + keyword);
      return 1;
    }
    HoldJobsRequest.Builder req = HoldJobsRequest.newBuilder()
        .setRelease(keyword.startsWith("rel")).setUserHold(keyword.startsWith("u"));
    List<String> words = new ArrayList<>();
    ids.forEach(w -> words.addAll(List.of(w.split(","))));
    for (String w : words) {
      String v = w.toLowerCase(Locale.ROOT).startsWith("jobid=") ? w.substring(6) : w;
      try {
        req.addJobIds(Integer.parseUnsignedInt(v));
      } catch (NumberFormatException e) {
        cli.err().println("Invalid job id specified for job " + w);
        cli.err().println("slurm_suspend error: " + SlurmError.INVALID_JOB_ID.message());
        return 1;
      }
    }
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder().setHoldJobs(req).build());
    } catch (IOException e) {
      // Slurm 22.05 reports an unreachable controller here as an unexpected message, per job.
      req.getJobIdsList().forEach(id -> holdError(cli, id, SlurmError.INVALID_MESSAGE.code()));
      return 1;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println("slurm_update error: " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    int rc = 0;
    for (JobResult res : r.getJobResults().getResultsList()) {
      if (res.getErrorCode() != 0) {
        holdError(cli, res.getJobId(), res.getErrorCode());
        rc = 1;
      }
    }
    return rc;
  }

  /** Slurm 22.05 names slurm_suspend here whatever the keyword; kept for identical output. */
  private static void holdError(Cli cli, int jobId, int code) {
    cli.err().println(SlurmError.messageFor(code) + " for job " + Integer.toUnsignedString(jobId));
    cli.err().println("slurm_suspend error: " + SlurmError.messageFor(code));
  }

  /** Calls the controller; a refusal or no answer is reported as "WHAT error: TEXT". */
  private static Response call(Cli cli, Request req, String what) throws Failed, IOException {
    Response r;
    try {
      r = cli.controller().get().call(req);
    } catch (IOException e) {
      cli.err().println(what + " error: " + SlurmError.CONTROLLER_DOWN.message());
      throw e;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println(what + " error: " + SlurmError.messageFor(r.getErrorCode()));
      throw new Failed();
    }
    return r;
  }
}

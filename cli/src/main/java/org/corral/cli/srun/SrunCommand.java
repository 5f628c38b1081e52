package org.corral.cli.srun;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Opt;
import org.corral.cli.sbatch.LocalSubmitterFacts;
import org.corral.cli.sbatch.SubmitterFacts;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.PluginOptions;
import org.corral.cli.submit.CommandLine;
import org.corral.cli.submit.AllocatingProcess;
import org.corral.cli.submit.InteractiveAllocation;
import org.corral.cli.submit.ResourceOptions;
import org.corral.cli.submit.ResourceOptions.Source;
import org.corral.cli.submit.ResourceRequest;
import org.corral.cli.submit.SignalQueue;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.CreateStepReply;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepSpec;

/**
 * srun: runs a parallel step. Inside an allocation (SLURM_JOB_ID, or --jobid) it creates a
 * step of that job; outside one it first gets an allocation of its own (an interactive job),
 * runs step 0 in it and releases it. The tasks' I/O comes to srun over TCP (see
 * {@link StepIoServer}); srun's exit code is the highest task's.
 */
public final class SrunCommand implements CliCommand {

  private final Supplier<InputStream> stdin;
  private final SubmitterFacts facts;
  private final Function<Map<String, String>, ClusterFacts> cluster;
  private final Supplier<SignalQueue> signals;

  public SrunCommand() {
    this(org.corral.cli.Caller.thisProcess());
  }

  /** An srun for the given caller: its stdin, directory, process facts and signals. */
  public SrunCommand(org.corral.cli.Caller caller) {
    this(caller.stdin(), new LocalSubmitterFacts(caller), ClusterFacts::load,
        () -> caller.signals().catching(SignalQueue.SIGINT, SignalQueue.SIGTERM, SignalQueue.SIGHUP,
            SignalQueue.SIGUSR1, SignalQueue.SIGUSR2, SignalQueue.SIGALRM, SignalQueue.SIGCONT));
  }

  public SrunCommand(Supplier<InputStream> stdin, SubmitterFacts facts,
      Function<Map<String, String>, ClusterFacts> cluster, Supplier<SignalQueue> signals) {
    this.stdin = stdin;
    this.facts = facts;
    this.cluster = cluster;
    this.signals = signals;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    try {
      return srun(args, cli);
    } catch (CommandFailure f) {
      f.lines().forEach(cli.err()::println);
      return f.exitStatus();
    }
  }

  private int srun(List<String> args, Cli cli) throws CommandFailure {
    PluginOptions plugins = PluginOptions.load("srun", cli.env());
    Getopt.Result command = CommandLine.parse(SrunOptionTable.getopt(plugins), args, "srun");
    Integer early = CommandLine.informational(command, cli, SrunCommand.class, "srun");
    if (early != null) {
      return early;
    }
    Integer envJob = jobIdFromEnvironment(cli.env());
    SrunOptions options = new SrunOptions();
    options.resources.usePlugins(plugins);
    for (Map.Entry<String, String> e : SrunOptionTable.ENVIRONMENT) {
      String value = cli.env().get(e.getKey());
      if (e.getKey().equals("SLURM_DISTRIBUTION") && "plane".equalsIgnoreCase(value)
          && cli.env().get("SLURM_DIST_PLANESIZE") != null) { // a batch job's -m plane=N, as Slurm passes it
        value = "plane=" + cli.env().get("SLURM_DIST_PLANESIZE").strip();
      }
      if (value != null) {
        options.apply(e.getValue(), value.isEmpty() ? null : value, Source.ENVIRONMENT);
      }
    }
    if (envJob == null && cli.env().get("SLURM_JOB_NAME") != null) {
      options.apply("J", cli.env().get("SLURM_JOB_NAME"), Source.ENVIRONMENT);
    }
    String jobNameFromCommandLine = null;
    for (Opt o : command.options()) {
      options.apply(o.key(), o.value(), Source.COMMAND_LINE);
      if (o.key().equals("J")) {
        jobNameFromCommandLine = o.value();
      }
    }
    if (MpiType.LIST.equals(options.mpi)) {
      MpiType.LISTING.forEach(cli.out()::println);
      return 0;
    }
    options.resources.validate();
    List<String> argv = command.operands();
    if (argv.isEmpty()) {
      throw CommandFailure.fatal("srun", "No command given to execute.");
    }
    Path cwd = facts.currentDirectory(cli.env());
    String multiProg = options.multiProg ? readMultiProg(cwd, argv.get(0)) : "";
    if (options.pty && !cli.caller().stdinTerminal()) {
      cli.err().println("srun: error: ioctl(TIOCGWINSZ): Inappropriate ioctl for device");
      cli.err().println("srun: error: Not using a pseudo-terminal, disregarding --pty option");
      options.pty = false;
    }
    adjustCounts(options.resources, cli);

    SignalQueue queue = signals.get();
    RpcChannel controller = cli.controller().get();
    ClusterFacts clusterFacts = cluster.apply(cli.env());
    if (options.mpi == null) {
      options.mpi = MpiType.fromConfig(clusterFacts.mpiDefault());
      if (MpiType.LIST.equals(options.mpi)) {
        options.mpi = MpiType.NONE;
      }
    }
    Integer jobId = options.jobId != null ? options.jobId : envJob;
    if (jobId != null) {
      JobInfo job = lookUp(controller, jobId);
      Integer nodes = options.resources.minNodes;
      if (nodes != null && nodes > job.getNumNodes()) { // srun refuses this itself, as Slurm's does
        cli.err().println("srun: error: Only allocated " + job.getNumNodes() + " nodes asked for " + nodes);
        return 1;
      }
      String jobName = jobNameFromCommandLine != null ? jobNameFromCommandLine
          : cli.env().getOrDefault("SLURM_JOB_NAME", job.getName());
      return runStep(cli, options, argv, multiProg, job, jobName, controller, queue, clusterFacts, cwd);
    }
    String jobName = options.resources.jobName != null ? options.resources.jobName : baseName(argv.get(0));
    InteractiveAllocation allocation = new InteractiveAllocation("srun", cli.err(), controller, queue,
        options.resources.quiet);
    int newJob = allocation.submit(jobSpec(options, jobName, argv, cwd, cli.clock()));
    JobInfo job = allocation.awaitStart(newJob, options.immediate);
    int rc = 1;
    try {
      rc = runStep(cli, options, argv, multiProg, job, jobName, controller, queue, clusterFacts, cwd);
    } finally {
      allocation.complete(newJob, (rc & 0xff) << 8);
    }
    return rc;
  }

  /** Slurm's warnings (and corrections) for task and node counts that do not fit together. */
  static void adjustCounts(ResourceOptions r, Cli cli) {
    if (r.ntasks != null && r.minNodes != null && r.ntasks < r.minNodes) {
      cli.err().println("srun: Warning: can't run " + r.ntasks + " processes on " + r.minNodes
          + " nodes, setting nnodes to " + r.ntasks);
      r.minNodes = r.ntasks;
      r.maxNodes = r.ntasks;
    }
    if (r.ntasksPerNode != null && r.ntasks != null && r.minNodes != null
        && r.ntasks != r.ntasksPerNode * r.minNodes) {
      cli.err().println("srun: Warning: can't honor --ntasks-per-node set to " + r.ntasksPerNode
          + " which doesn't match the requested tasks " + r.ntasks + " with the number of requested nodes "
          + r.minNodes + ". Ignoring --ntasks-per-node.");
      r.ntasksPerNode = null;
    }
  }

  private int runStep(Cli cli, SrunOptions o, List<String> argv, String multiProg, JobInfo job,
      String jobName, RpcChannel controller, SignalQueue queue, ClusterFacts clusterFacts, Path cwd)
      throws CommandFailure {
    String host = facts.hostname();
    String ioHost = SrunListener.commHost(clusterFacts.confPath(), host);
    try (ServerSocket listener = SrunListener.open(clusterFacts.confPath())) {
      Map<String, String> process = new java.util.LinkedHashMap<>(facts.processVariables());
      process.keySet().removeIf(k -> k.startsWith("SLURM_RLIMIT_")); // srun sends limits, not variables
      List<String> env = StepEnvironment.build(o, cli.env(), job, jobName, clusterFacts, cwd.toString(),
          host, ioHost, listener.getLocalPort(), process);
      StepSpec spec = stepSpec(o, job.getJobId(), argv, multiProg, env, cwd, ioHost, listener.getLocalPort(), host)
          .toBuilder().setSrunPid((int) facts.pid()).build();
      CreateStepReply reply = StepCreation.create(controller, spec, cli.err(), queue, o.resources.quiet);
      TerminalMode terminal = new TerminalMode();
      if (o.pty) {
        terminal.enterRaw();
      }
      try (StepIoServer io = new StepIoServer(listener)) {
        StepRun run = new StepRun(cli.err(), cli.out(), cli.err(), stdin.get(), queue, System::nanoTime,
            settings(o, clusterFacts), new ControllerStepControl(controller, reply.getStep()));
        return run.run(reply.getStep(), reply.getIoKey().toByteArray(), io);
      } finally {
        terminal.restore();
      }
    } catch (IOException e) {
      throw CommandFailure.error("srun", "Unable to open a port for the step's I/O: " + e.getMessage());
    }
  }

  private static StepRun.Settings settings(SrunOptions o, ClusterFacts clusterFacts) {
    TaskSelection out = TaskSelection.of(o.output);
    TaskSelection err = o.error != null ? TaskSelection.of(o.error) : out;
    int stdinTask = o.pty ? 0
        : TaskSelection.isFile(o.input) ? TaskSelection.NONE.task()
        : TaskSelection.of(o.input).task();
    return new StepRun.Settings(o.label, o.unbuffered, out, err, stdinTask, o.killOnBadExit,
        o.waitSeconds, o.disableStatus, o.quitOnInterrupt, clusterFacts.killWait());
  }

  static StepSpec stepSpec(SrunOptions o, int jobId, List<String> argv, String multiProg,
      List<String> env, Path cwd, String ioHost, int ioPort, String host) {
    ResourceOptions r = o.resources;
    StepSpec.Builder b = StepSpec.newBuilder()
        .setJobId(jobId)
        .setName(r.jobName != null ? r.jobName : baseName(argv.get(0)))
        .setExclusive(r.exclusive)
        .setOverlap(o.overlap)
        .addAllArgv(argv)
        .addAllEnvironment(env)
        .setWorkDir(r.chdir == null ? cwd.toString() : cwd.resolve(r.chdir).normalize().toString())
        .setIoHost(ioHost)
        .setIoPort(ioPort)
        .setStdinTask(o.pty ? 0 : TaskSelection.of(o.input).task())
        .setPty(o.pty)
        .setMpi(o.mpi == null ? MpiType.NONE : o.mpi)
        .setCpuBind(o.cpuBind)
        .setMultiProg(multiProg)
        .setUnbuffered(o.unbuffered)
        .setSrunHost(host)
        .setKillOnBadExit(o.killOnBadExit)
        .setOvercommit(r.overcommit);
    if (r.distribution != null) {
      b.setDistribution(r.distribution);
    }
    if (r.container != null) {
      b.setContainer(r.container);
    }
    b.putAllPluginOptions(r.plugins().values());
    r.gres.applyTo(b);
    if (r.minNodes != null) {
      b.setMinNodes(r.minNodes).setMaxNodes(r.maxNodes);
    }
    if (r.ntasks != null) {
      b.setNumTasks(r.ntasks);
    }
    if (r.cpusPerTask != null) {
      b.setCpusPerTask(r.cpusPerTask);
    }
    if (r.ntasksPerNode != null) {
      b.setNtasksPerNode(r.ntasksPerNode);
    }
    if (r.nodeList != null) {
      b.setNodeList(r.nodeList);
    }
    if (r.timeLimitMin != null) {
      b.setTimeLimitMin((int) (long) r.timeLimitMin);
    }
    if (r.memMb != null) {
      b.setMemPerNodeMb(r.memMb);
    }
    if (r.memPerCpuMb != null) {
      b.setMemPerCpuMb(r.memPerCpuMb);
    }
    if (TaskSelection.isFile(o.output)) {
      b.setStdOut(o.output);
    }
    if (TaskSelection.isFile(o.error)) {
      b.setStdErr(o.error);
    }
    if (TaskSelection.isFile(o.input)) {
      b.setStdIn(o.input);
    }
    if (o.openMode != null) {
      b.setOpenMode(o.openMode);
    }
    return b.build();
  }

  /** The allocation srun asks for when it runs outside one. */
  private JobSpec jobSpec(SrunOptions o, String jobName, List<String> argv, Path cwd, java.time.Clock clock)
      throws CommandFailure {
    ResourceOptions r = o.resources;
    JobSpec.Builder b = JobSpec.newBuilder()
        .setName(jobName)
        .setWorkDir(r.chdir == null ? cwd.toString() : cwd.resolve(r.chdir).normalize().toString())
        .setSubmitHost(facts.hostname())
        .setAllocSid(facts.sessionId())
        .setCommand(argv.get(0))
        .setInteractive(true);
    AllocatingProcess.mark(b, facts.pid());
    return ResourceRequest.apply(r, b, "srun", java.time.ZonedDateTime.now(clock)).build();
  }

  /** The allocation named by SLURM_JOB_ID (or SLURM_JOBID); null outside one. */
  private static Integer jobIdFromEnvironment(Map<String, String> env) {
    String v = env.getOrDefault("SLURM_JOB_ID", env.get("SLURM_JOBID"));
    if (v == null || v.isBlank()) {
      return null;
    }
    try {
      return Integer.parseUnsignedInt(v.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The running job srun was told to use, or Slurm's two lines when there is none. */
  private static JobInfo lookUp(RpcChannel controller, int jobId) throws CommandFailure {
    Response r;
    try {
      r = controller.call(Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addJobIds(jobId)).build());
    } catch (IOException | UncheckedIOException e) {
      throw unconfirmed(jobId, SlurmError.CONTROLLER_DOWN.code());
    }
    if (r.getErrorCode() != 0) {
      throw unconfirmed(jobId, r.getErrorCode());
    }
    for (JobInfo j : r.getJobInfo().getJobsList()) {
      if (j.getJobId() == jobId && j.getState() == JobState.RUNNING) {
        return j;
      }
    }
    throw unconfirmed(jobId, SlurmError.INVALID_JOB_ID.code());
  }

  private static CommandFailure unconfirmed(int jobId, int code) {
    return new CommandFailure(1, List.of(
        "srun: error: Unable to confirm allocation for job " + jobId + ": " + SlurmError.messageFor(code),
        "srun: Check SLURM_JOB_ID environment variable. Expired or invalid job " + jobId));
  }

  private static String readMultiProg(Path cwd, String file) throws CommandFailure {
    try {
      return Files.readString(cwd.resolve(file), StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      throw CommandFailure.error("srun", "Could not open multi_prog config file " + file);
    }
  }

  static String baseName(String path) {
    String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    return p.substring(p.lastIndexOf('/') + 1);
  }

}

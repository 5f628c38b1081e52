package org.corral.cli.salloc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
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
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * salloc: gets an allocation, runs a command on this host with the allocation's SLURM_*
 * variables (by default the user's shell), and releases the allocation when it ends; with
 * --no-shell it only gets the allocation. While the command runs salloc ignores Ctrl-C (it is
 * the command's) and watches the allocation: if it is revoked, the command is ended.
 */
public final class SallocCommand implements CliCommand {

  static final String PROGRAM = "salloc";
  /** How often salloc checks that its allocation still stands while the command runs. */
  static final long WATCH_INTERVAL_MS = 5000;

  private final SubmitterFacts facts;
  private final Function<Map<String, String>, ClusterFacts> cluster;
  private final Supplier<SignalQueue> signals;
  private final LongSupplier nanoClock;

  public SallocCommand() {
    this(org.corral.cli.Caller.thisProcess());
  }

  /** A salloc for the given caller: its directory, process facts and signals. */
  public SallocCommand(org.corral.cli.Caller caller) {
    this(new LocalSubmitterFacts(caller), ClusterFacts::load,
        () -> caller.signals().catching(SignalQueue.SIGINT, SignalQueue.SIGTERM, SignalQueue.SIGHUP));
  }

  public SallocCommand(SubmitterFacts facts, Function<Map<String, String>, ClusterFacts> cluster,
      Supplier<SignalQueue> signals) {
    this(facts, cluster, signals, System::nanoTime);
  }

  public SallocCommand(SubmitterFacts facts, Function<Map<String, String>, ClusterFacts> cluster,
      Supplier<SignalQueue> signals, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.facts = facts;
    this.cluster = cluster;
    this.signals = signals;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    try {
      return salloc(args, cli);
    } catch (CommandFailure f) {
      f.lines().forEach(cli.err()::println);
      return f.exitStatus();
    }
  }

  private int salloc(List<String> args, Cli cli) throws CommandFailure {
    PluginOptions plugins = PluginOptions.load(PROGRAM, cli.env());
    Getopt.Result command = CommandLine.parse(SallocOptionTable.getopt(plugins), args, PROGRAM);
    Integer early = CommandLine.informational(command, cli, SallocCommand.class, PROGRAM);
    if (early != null) {
      return early;
    }
    ResourceOptions r = new ResourceOptions(PROGRAM);
    r.usePlugins(plugins);
    boolean noShell = false;
    Integer immediate = null;
    for (Map.Entry<String, String> e : SallocOptionTable.ENVIRONMENT) {
      String value = cli.env().get(e.getKey());
      if (value != null) {
        apply(r, e.getValue(), value.isEmpty() ? null : value, Source.ENVIRONMENT);
      }
    }
    for (Opt o : command.options()) {
      if (o.key().equals("no-shell")) {
        noShell = true;
      } else if (o.key().equals("I")) {
        immediate = InteractiveAllocation.immediateSeconds(PROGRAM, o.value());
      } else {
        apply(r, o.key(), o.value(), Source.COMMAND_LINE);
      }
    }
    r.validate();
    List<String> argv = command.operands().isEmpty() ? List.of(shell(cli.env())) : command.operands();
    Path cwd = facts.currentDirectory(cli.env());
    Path workDir = r.chdir == null ? cwd : cwd.resolve(r.chdir).normalize();

    SignalQueue queue = signals.get();
    RpcChannel controller = cli.controller().get();
    InteractiveAllocation allocation = new InteractiveAllocation(PROGRAM, cli.err(), controller, queue, r.quiet);
    JobSpec.Builder spec = JobSpec.newBuilder()
        .setName(r.jobName != null ? r.jobName : noShell ? "no-shell" : "interactive")
        .setWorkDir(workDir.toString())
        .setSubmitHost(facts.hostname())
        .setAllocSid(facts.sessionId())
        .setCommand(noShell ? "" : argv.get(0))
        .setInteractive(true);
    if (!noShell) {
      AllocatingProcess.mark(spec, facts.pid());
    }
    int jobId = allocation.submit(ResourceRequest.apply(r, spec, PROGRAM, java.time.ZonedDateTime.now(cli.clock())).build());
    JobInfo job = allocation.awaitStart(jobId, immediate);
    if (noShell) {
      return 0;
    }
    Map<String, String> env = new HashMap<>(cli.env());
    env.putAll(AllocationEnvironment.of(job, r, cluster.apply(cli.env()), cwd.toString(), facts.hostname()));
    int rc = runCommand(argv, env, workDir, cli, controller, queue, jobId);
    if (!r.quiet) {
      cli.err().println("salloc: Relinquishing job allocation " + jobId);
    }
    allocation.complete(jobId, (rc & 0xff) << 8);
    return rc;
  }

  private static void apply(ResourceOptions r, String key, String value, Source source) throws CommandFailure {
    if (!r.apply(key, value, source) && !ResourceOptions.NO_EFFECT.contains(key)
        && !SallocOptionTable.NO_EFFECT.contains(key)) {
      throw CommandFailure.error(PROGRAM,
          "option " + SallocOptionTable.displayName(key) + " is not supported by Corral");
    }
  }

  /**
   * Runs the command here and waits for it. Its exit code is salloc's; one killed by a signal
   * gives 1, as with Slurm.
   */
  private int runCommand(List<String> argv, Map<String, String> env, Path dir, Cli cli,
      RpcChannel controller, SignalQueue queue, int jobId) {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).inheritIO();
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      cli.err().println("salloc: error: _fork_command: Unable to find command \"" + argv.get(0) + "\"");
      return 1;
    }
    long nextCheck = nanoClock.getAsLong() + WATCH_INTERVAL_MS * 1_000_000L;
    try {
      while (!p.waitFor(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        Integer sig = queue.poll(0);
        if (sig != null && sig != SignalQueue.SIGINT) {
          p.destroy(); // SIGTERM or SIGHUP to salloc: the command goes too
        }
        if (nanoClock.getAsLong() >= nextCheck) {
          nextCheck = nanoClock.getAsLong() + WATCH_INTERVAL_MS * 1_000_000L;
          if (revoked(controller, jobId)) {
            cli.err().println("salloc: Job allocation " + jobId + " has been revoked.");
            p.destroy();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroy();
      return 1;
    }
    int code = p.exitValue();
    return code > 128 ? 1 : code;
  }

  /** Whether the allocation has ended under the command (time limit, scancel). */
  private static boolean revoked(RpcChannel controller, int jobId) {
    try {
      Response r = controller.call(Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addJobIds(jobId)).build());
      if (r.getErrorCode() != 0) {
        return false;
      }
      return r.getJobInfo().getJobsList().stream().noneMatch(j -> j.getJobId() == jobId && j.getState() == JobState.RUNNING);
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** The user's shell: $SHELL, else /bin/sh. */
  private static String shell(Map<String, String> env) {
    String s = env.get("SHELL");
    return s == null || s.isBlank() ? "/bin/sh" : s;
  }

}

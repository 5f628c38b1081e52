package org.corral.cli.sbatch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Opt;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.HelpText;
import org.corral.cli.submit.PluginOptions;
import org.corral.cli.submit.ResourceOptions.Source;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;

/**
 * sbatch: submits a batch script. Options come from #SBATCH lines, SBATCH_* variables and the
 * command line, in rising precedence; the script from a file operand, --wrap, or stdin.
 */
public final class SbatchCommand implements CliCommand {

  /** What {@code sbatch --version} prints: the Slurm release whose behaviour Corral follows. */
  public static final String VERSION = org.corral.common.Version.TEXT;

  private final Supplier<InputStream> stdin;
  private final SubmitterFacts facts;

  public SbatchCommand() {
    this(org.corral.cli.Caller.thisProcess());
  }

  /** An sbatch for the given caller: its stdin, directory and process facts. */
  public SbatchCommand(org.corral.cli.Caller caller) {
    this(caller.stdin(), new LocalSubmitterFacts(caller));
  }

  public SbatchCommand(Supplier<InputStream> stdin, SubmitterFacts facts) {
    this.stdin = stdin;
    this.facts = facts;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    try {
      return submit(args, cli);
    } catch (CommandFailure f) {
      f.lines().forEach(cli.err()::println);
      return f.exitStatus();
    }
  }

  private int submit(List<String> args, Cli cli) throws CommandFailure {
    PluginOptions plugins = PluginOptions.load("sbatch", cli.env());
    Getopt.Result command = parse(args, cli.program(), plugins);
    for (Opt o : command.options()) {
      switch (o.key()) {
        case "h" -> { return print(cli, "help.txt"); }
        case "usage" -> { return print(cli, "usage.txt"); }
        case "V" -> {
          cli.out().println(VERSION);
          return 0;
        }
        default -> { }
      }
    }
    String wrap = lastValue(command.options(), "wrap");
    List<String> operands = command.operands();
    if (wrap != null && !operands.isEmpty()) {
      throw SbatchFailure.error("Script arguments not permitted with --wrap option");
    }
    BatchScript script = wrap != null ? BatchScript.wrapping(wrap)
        : operands.isEmpty() ? readStdin() : readFile(operands.get(0), cli.env());
    script.validate();

    SbatchOptions options = new SbatchOptions();
    options.allocation.usePlugins(plugins);
    for (Opt o : directives(script, cli.program(), plugins)) {
      options.apply(o.key(), o.value(), Source.SCRIPT);
    }
    for (Map.Entry<String, String> e : SbatchOptionTable.ENVIRONMENT.entrySet()) {
      String value = cli.env().get(e.getKey());
      if (value != null) {
        options.apply(e.getValue(), value.isEmpty() ? null : value, Source.ENVIRONMENT);
      }
    }
    for (Opt o : command.options()) {
      options.apply(o.key(), o.value(), Source.COMMAND_LINE);
    }
    options.validate();
    String cluster = options.clusters == null ? null : WorkingCluster.choose(options.clusters, cli.env(), cli.err());

    List<String> scriptArgs = operands.isEmpty() ? List.of() : operands.subList(1, operands.size());
    JobSpec spec = new JobSpecAssembler(facts, cli.env(), java.time.ZonedDateTime.now(cli.clock()))
        .assemble(options, script, operands.isEmpty() ? null : operands.get(0), scriptArgs);
    return send(spec, options, cluster, cli);
  }

  private static Getopt.Result parse(List<String> args, String program, PluginOptions plugins) throws SbatchFailure {
    try {
      return SbatchOptionTable.getopt(plugins).parse(args);
    } catch (Getopt.GetoptException e) {
      throw new SbatchFailure(SbatchFailure.USAGE_STATUS, List.of(
          program + ": " + e.getMessage(), "Try \"sbatch --help\" for more information"));
    }
  }

  /** The #SBATCH options; anything that is not an option there is an invalid directive. */
  private static List<Opt> directives(BatchScript script, String program, PluginOptions plugins)
      throws SbatchFailure {
    Getopt.Result parsed = parse(script.directiveArguments(), program, plugins);
    if (!parsed.operands().isEmpty()) {
      throw SbatchFailure.invalid(
          "Invalid directive found in batch script: " + parsed.operands().get(0));
    }
    return parsed.options();
  }

  /** Submits; {@code cluster} is the -M cluster, named after the job id as Slurm does, or null. */
  private int send(JobSpec spec, SbatchOptions options, String cluster, Cli cli) throws SbatchFailure {
    Request request = Request.newBuilder()
        .setSubmitJob(SubmitJobRequest.newBuilder().setSpec(spec).setTestOnly(options.testOnly))
        .build();
    Response response;
    try {
      response = cli.controller().get().call(request);
    } catch (IOException | UncheckedIOException e) {
      throw SbatchFailure.error("Batch job submission failed: "
          + SlurmError.messageFor(SlurmError.CONTROLLER_DOWN.code()));
    }
    if (options.testOnly) {
      return testOnly(response, cli);
    }
    if (response.getErrorCode() != 0) {
      List<String> lines = new ArrayList<>();
      String detail = response.getErrorMessage();
      String text = SlurmError.messageFor(response.getErrorCode());
      if (!detail.isEmpty() && !detail.equals(text)) {
        lines.add("sbatch: error: " + detail);
      }
      // Slurm's sbatch refuses a GRES name missing from GresTypes itself, before submitting.
      lines.add(response.getErrorCode() == SlurmError.INVALID_GRES.code() ? "sbatch: error: " + text
          : "sbatch: error: Batch job submission failed: " + text);
      throw new SbatchFailure(1, lines);
    }
    int jobId = response.getSubmitJob().getJobId();
    if (options.parsable) {
      cli.out().println(jobId + (cluster == null ? "" : ";" + cluster));
    } else if (!options.allocation.quiet) {
      cli.out().println("Submitted batch job " + jobId + (cluster == null ? "" : " on cluster " + cluster));
    }
    cli.out().flush();
    return options.waitForEnd ? JobWaiter.await(jobId, cli, Thread::sleep) : 0;
  }

  /**
   * --test-only's answer, on stderr as Slurm prints it: "sbatch: Job N to start at TIME using C
   * processors on nodes LIST in partition P", or "allocation failure: MESSAGE" (exit 1).
   */
  private static int testOnly(Response response, Cli cli) {
    if (response.getErrorCode() != 0) {
      cli.err().println("allocation failure: " + SlurmError.messageFor(response.getErrorCode()));
      return 1;
    }
    var run = response.getSubmitJob().getWillRun();
    cli.err().println("sbatch: Job " + Integer.toUnsignedString(run.getJobId())
        + " to start at " + org.corral.cli.format.SlurmTimes.iso(run.getStartTime(), cli.clock().getZone(), "Unknown")
        + " using " + run.getCpus() + " processors on nodes " + run.getNodes() + " in partition "
        + run.getPartition());
    return 0;
  }

  private BatchScript readStdin() throws SbatchFailure {
    try (InputStream in = stdin.get()) {
      return new BatchScript(new String(in.readAllBytes(), StandardCharsets.UTF_8), null);
    } catch (IOException e) {
      throw SbatchFailure.error("unable to read script from stdin: " + e.getMessage());
    }
  }

  /** Reads a script operand, relative to the caller's directory. */
  private BatchScript readFile(String name, Map<String, String> env) throws SbatchFailure {
    try {
      Path path = facts.currentDirectory(env).resolve(name);
      return new BatchScript(new String(Files.readAllBytes(path), StandardCharsets.UTF_8), name);
    } catch (IOException | RuntimeException e) {
      throw SbatchFailure.error("Unable to open file " + name);
    }
  }

  private static String lastValue(List<Opt> options, String key) {
    String value = null;
    for (Opt o : options) {
      if (o.key().equals(key)) {
        value = o.value();
      }
    }
    return value;
  }

  private static int print(Cli cli, String resource) throws CommandFailure {
    return HelpText.print(cli, SbatchCommand.class, resource, "sbatch");
  }

}

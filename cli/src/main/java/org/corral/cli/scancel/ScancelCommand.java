package org.corral.cli.scancel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.sbatch.SbatchCommand;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * scancel: cancels or signals jobs given by id, or every job matching the filters (-u, -t, -p,
 * -n, -A, -q, -w, -R, --wckey), asking first with -i. The controller selects the matching jobs
 * and checks the caller may act on each.
 */
public final class ScancelCommand implements CliCommand {
  /** -i's answers. */
  private final Supplier<InputStream> stdin;

  public ScancelCommand() {
    this(() -> System.in);
  }

  public ScancelCommand(Supplier<InputStream> stdin) {
    this.stdin = stdin;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    ScancelOptions o;
    try {
      o = ScancelOptions.parse(args, cli.program(), currentUser(cli));
    } catch (ScancelFailure f) {
      f.lines().forEach(cli.err()::println);
      return 1;
    }
    if (o.informational != null) {
      return informational(o.informational, cli);
    }
    int stepStatus = StepCancel.run(o, cli);
    if (o.jobIds.isEmpty() && o.arrayTasks.isEmpty() && !o.hasFilter()) {
      return stepStatus;
    }
    int askedStatus = 0;
    Response response;
    try {
      if (o.interactive) {
        InteractiveCancel.Answer answer = InteractiveCancel.ask(request(o), cli, stdin.get());
        if (answer.confirmed().isEmpty()) {
          return Math.max(stepStatus, answer.status());
        }
        askedStatus = answer.status();
        o = o.onlyJobs(answer.confirmed());
      }
      response = cli.controller().get().call(Request.newBuilder().setCancelJobs(request(o)).build());
    } catch (ScancelFailure f) {
      f.lines().forEach(cli.err()::println);
      return 1;
    } catch (IOException | UncheckedIOException e) {
      String down = SlurmError.CONTROLLER_DOWN.message();
      if (o.jobIds.isEmpty()) {
        cli.error("error: " + down);
        return 1;
      }
      o.jobIds.forEach(id -> printKillError(id, down, cli));
      return SlurmError.CONTROLLER_DOWN.code() & 0xff; // as Slurm: the error number's low byte
    }
    if (response.getErrorCode() != 0) {
      String message = response.getErrorMessage().isEmpty()
          ? SlurmError.messageFor(response.getErrorCode()) : response.getErrorMessage();
      cli.error("error: " + message);
      return 1;
    }
    return Math.max(Math.max(stepStatus, askedStatus), report(o, response.getJobResults().getResultsList(), cli));
  }

  private static CancelJobsRequest.Builder request(ScancelOptions o) {
    CancelJobsRequest.Builder b = CancelJobsRequest.newBuilder()
        .addAllJobIds(o.jobIds)
        .addAllArrayTasks(o.arrayTasks.stream().map(t -> org.corral.protocol.msg.ArrayTaskRef.newBuilder()
            .setArrayJobId(t[0]).setTaskId(t[1]).build()).toList())
        .setBatchOnly(o.batch)
        .setFull(o.full);
    // -b alone kills the batch shell, as Slurm's default signal for it is SIGKILL.
    if (o.signal != null) {
      b.setSignal(o.signal);
    } else if (o.batch) {
      b.setSignal(SignalNames.SIGKILL);
    }
    if (o.user != null) {
      b.setUserName(o.user);
    }
    if (o.state != null) {
      b.addStates(o.state);
    }
    if (o.partition != null) {
      b.setPartition(o.partition);
    }
    if (o.name != null) {
      b.setJobName(o.name);
    }
    if (o.account != null) {
      b.setAccount(o.account);
    }
    if (o.qos != null) {
      b.setQos(o.qos);
    }
    if (o.nodeList != null) {
      b.setNodeList(o.nodeList);
    }
    if (o.reservation != null) {
      b.setReservation(o.reservation);
    }
    if (o.wckey != null) {
      b.setWckey(o.wckey);
    }
    return b;
  }

  /**
   * Prints what Slurm prints for each job and returns its exit status. Cancelling a job that is
   * unknown or already finished is not an error (it is only reported with -v); signalling one
   * is, reported as an unknown id with status 1. Any other refusal exits with its error number
   * truncated to 8 bits, as scancel's exit(rc) does.
   */
  private static int report(ScancelOptions o, List<JobResult> results, Cli cli) {
    if (o.verbose > 0) {
      for (JobResult r : results) {
        cli.err().println(action(o, r.getJobId()));
      }
      if (results.isEmpty() && o.jobIds.isEmpty()) {
        cli.error("error: No active jobs match ALL job filters, including: " + o.describeFilters());
      }
    }
    int status = 0;
    for (JobResult r : results) {
      int code = r.getErrorCode();
      if (code == 0) {
        continue;
      }
      boolean gone = code == SlurmError.INVALID_JOB_ID.code() || code == SlurmError.ALREADY_DONE.code();
      if (gone && !o.signalling()) {
        if (o.verbose > 0) {
          printKillError(r.getJobId(), SlurmError.messageFor(code), cli);
        }
        continue;
      }
      if (!o.quiet || !gone) {
        printKillError(r.getJobId(),
            SlurmError.messageFor(gone ? SlurmError.INVALID_JOB_ID.code() : code), cli);
      }
      status = gone ? 1 : (code & 0xFF) == 0 ? 1 : code & 0xFF;
    }
    return status;
  }

  private static String action(ScancelOptions o, int jobId) {
    String id = Integer.toUnsignedString(jobId);
    if (o.signal != null) {
      return "scancel: Signal " + o.signal + " to job " + id;
    }
    return o.full ? "scancel: Terminating full job " + id : "scancel: Terminating job " + id;
  }

  private static void printKillError(int jobId, String text, Cli cli) {
    cli.error("error: Kill job error on job id " + Integer.toUnsignedString(jobId) + ": " + text);
  }

  private static int informational(String what, Cli cli) {
    if (what.equals("V")) {
      cli.out().println(SbatchCommand.VERSION);
      return 0;
    }
    String resource = what.equals("help") ? "help.txt" : "usage.txt";
    try (InputStream in = ScancelCommand.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("missing resource " + resource);
      }
      cli.out().print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return 0;
    } catch (IOException e) {
      cli.error("error: " + e.getMessage());
      return 1;
    }
  }

  /** Who --me names: the caller's login name from its environment, else this process's user. */
  private static String currentUser(Cli cli) {
    String user = cli.env().get("USER");
    if (user == null || user.isEmpty()) {
      user = cli.env().get("LOGNAME");
    }
    return user == null || user.isEmpty() ? System.getProperty("user.name") : user;
  }
}

package org.corral.cli.submit;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.CompleteAllocationRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.protocol.msg.WaitAllocationRequest;

/**
 * An interactive allocation as srun (outside a job) and salloc get one: submit a JobSpec with
 * interactive set, wait for it to start with Slurm's messages ("job N queued and waiting for
 * resources", ...), give it up when a signal comes while it waits, and complete it at the end.
 */
public final class InteractiveAllocation {

  /** How long the first wait lasts before the job counts as queued. */
  static final int FIRST_WAIT_MS = 1000;
  /** Each later wait: short, so that Ctrl-C is acted on promptly. */
  static final int POLL_WAIT_MS = 1000;

  /** Pending reasons for which Slurm says the partition cannot take the job now. */
  private static final Set<String> PARTITION_REASONS = Set.of(
      "PartitionNodeLimit", "PartitionConfig", "PartitionTimeLimit");

  private final String program;
  private final PrintStream err;
  private final RpcChannel controller;
  private final SignalQueue signals;
  private final boolean quiet;

  public InteractiveAllocation(String program, PrintStream err, RpcChannel controller,
      SignalQueue signals, boolean quiet) {
    this.program = program;
    this.err = err;
    this.controller = controller;
    this.signals = signals;
    this.quiet = quiet;
  }

  private boolean salloc() {
    return program.equals("salloc");
  }

  /** Submits the allocation request; returns the job id. */
  public int submit(JobSpec spec) throws CommandFailure {
    Response r = call(Request.newBuilder()
        .setSubmitJob(SubmitJobRequest.newBuilder().setSpec(spec.toBuilder().setInteractive(true))).build());
    if (r.getErrorCode() != 0) {
      throw failed(r.getErrorCode(), r.getErrorMessage());
    }
    return r.getSubmitJob().getJobId();
  }

  /** Waits until the job runs; returns it. Fails (exit 1) if it ends or a signal comes first. */
  public JobInfo awaitStart(int jobId) throws CommandFailure {
    JobInfo job = waitOnce(jobId, FIRST_WAIT_MS);
    boolean waited = false;
    while (job.getState() == JobState.PENDING) {
      if (!waited) {
        waited = true;
        if (PARTITION_REASONS.contains(job.getStateReason())) {
          info("Requested partition configuration not available now");
        }
        if (salloc()) {
          info("Pending job allocation " + jobId);
        }
        info("job " + jobId + " queued and waiting for resources");
      }
      Integer sig = signals.poll(0);
      if (sig != null && (sig == SignalQueue.SIGINT || sig == SignalQueue.SIGTERM || sig == SignalQueue.SIGHUP)) {
        throw revoked(jobId);
      }
      job = waitOnce(jobId, POLL_WAIT_MS);
    }
    if (job.getState() != JobState.RUNNING) {
      List<String> lines = new ArrayList<>();
      if (job.getState() == JobState.CANCELLED) {
        lines.add(program + ": Job has been cancelled");
      }
      if (salloc()) {
        lines.add("salloc: Job allocation " + jobId + " has been revoked.");
      }
      lines.addAll(failed(SlurmError.ALREADY_DONE.code(), "").lines());
      throw new CommandFailure(1, lines);
    }
    if (waited) {
      info("job " + jobId + " has been allocated resources");
    }
    if (salloc()) {
      info("Granted job allocation " + jobId);
    }
    return job;
  }

  /** Releases the allocation: the job ends with the given wait(2)-style status. */
  public void complete(int jobId, int exitStatus) {
    try {
      controller.call(Request.newBuilder().setCompleteAllocation(CompleteAllocationRequest.newBuilder()
          .setJobId(jobId).setExitStatus(exitStatus)).build());
    } catch (IOException | UncheckedIOException e) {
      err.println(program + ": error: Unable to release allocation " + jobId + ": "
          + SlurmError.messageFor(SlurmError.CONTROLLER_DOWN.code()));
    }
  }

  /** Cancels the pending job after a signal: Slurm's words, exit 1. */
  private CommandFailure revoked(int jobId) {
    cancel(jobId);
    return new CommandFailure(1, salloc()
        ? List.of("salloc: Job allocation " + jobId + " has been revoked.", "salloc: Job aborted due to signal")
        : List.of("srun: Job allocation " + jobId + " has been revoked", "srun: Force Terminated JobId=" + jobId));
  }

  public void cancel(int jobId) {
    try {
      controller.call(Request.newBuilder().setCancelJobs(CancelJobsRequest.newBuilder().addJobIds(jobId)).build());
    } catch (IOException | UncheckedIOException e) {
      // The controller is gone: nothing more we can do for the job.
    }
  }

  private JobInfo waitOnce(int jobId, int timeoutMs) throws CommandFailure {
    Response r = call(Request.newBuilder().setWaitAllocation(WaitAllocationRequest.newBuilder()
        .setJobId(jobId).setTimeoutMs(timeoutMs)).build());
    if (r.getErrorCode() != 0) {
      cancel(jobId);
      throw failed(r.getErrorCode(), r.getErrorMessage());
    }
    return r.getWaitAllocation().getJob();
  }

  private Response call(Request request) throws CommandFailure {
    try {
      return controller.call(request);
    } catch (IOException | UncheckedIOException e) {
      throw failed(SlurmError.CONTROLLER_DOWN.code(), "");
    }
  }

  /** The error lines for a refused request: the controller's detail, then Slurm's summary. */
  private CommandFailure failed(int code, String detail) {
    String text = SlurmError.messageFor(code);
    List<String> lines = new ArrayList<>();
    if (!detail.isEmpty() && !detail.equals(text)) {
      lines.add(program + ": error: " + detail);
    }
    lines.add(program + ": error: " + (salloc() ? "Job submit/allocate failed: " : "Unable to allocate resources: ") + text);
    return new CommandFailure(1, lines);
  }

  private void info(String message) {
    if (!quiet) {
      err.println(program + ": " + message);
    }
  }
}

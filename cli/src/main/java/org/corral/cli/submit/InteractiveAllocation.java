package org.corral.cli.submit;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
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
  private final LongSupplier nanoClock;

  public InteractiveAllocation(String program, PrintStream err, RpcChannel controller,
      SignalQueue signals, boolean quiet) {
    this(program, err, controller, signals, quiet, System::nanoTime);
  }

  public InteractiveAllocation(String program, PrintStream err, RpcChannel controller,
      SignalQueue signals, boolean quiet, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
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

  /**
   * The value of -I/--immediate[=secs]: 0 when bare (the first scheduling attempt only), else the
   * seconds to wait; Slurm's words for anything but a non-negative number.
   */
  public static int immediateSeconds(String program, String value) throws CommandFailure {
    if (value == null) {
      return 0;
    }
    String v = value.strip();
    if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(Character::isDigit)) {
      throw CommandFailure.error(program, "Invalid numeric value \"" + value + "\" for immediate.");
    }
    return Integer.parseInt(v);
  }

  /** Waits until the job runs; returns it. Fails (exit 1) if it ends or a signal comes first. */
  public JobInfo awaitStart(int jobId) throws CommandFailure {
    return awaitStart(jobId, null);
  }

  /**
   * As {@link #awaitStart(int)}; with immediate (-I: 0 when bare, else seconds) the request is
   * withdrawn when the job has not started at once (bare: after the first wait, which the
   * scheduling pass a submission triggers answers) or within the seconds, with Slurm's words.
   */
  public JobInfo awaitStart(int jobId, Integer immediate) throws CommandFailure {
    long deadline = immediate == null || immediate == 0 ? 0
        : nanoClock.getAsLong() + immediate * 1_000_000_000L;
    JobInfo job = waitOnce(jobId, immediate == null || immediate == 0 ? FIRST_WAIT_MS
        : (int) Math.min(FIRST_WAIT_MS, immediate * 1000L));
    boolean waited = false;
    while (job.getState() == JobState.PENDING) {
      if (immediate != null && (immediate == 0 || nanoClock.getAsLong() >= deadline)) {
        throw withdrawn(jobId, immediate);
      }
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
      long left = immediate == null ? POLL_WAIT_MS : (deadline - nanoClock.getAsLong()) / 1_000_000L;
      job = waitOnce(jobId, (int) Math.max(1, Math.min(POLL_WAIT_MS, left)));
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

  /**
   * Cancels the job -I could not start: salloc says the nodes are busy (bare) or that the wait
   * timed out (seconds) and that the allocation is revoked; srun that the nodes are busy.
   */
  private CommandFailure withdrawn(int jobId, int immediate) {
    cancel(jobId);
    if (!salloc()) {
      return new CommandFailure(1, List.of(
          "srun: error: Unable to allocate resources: " + SlurmError.NODES_BUSY.message()));
    }
    return new CommandFailure(1, List.of(
        "salloc: error: Unable to allocate resources: "
            + (immediate == 0 ? SlurmError.NODES_BUSY.message() : "Connection timed out"),
        "salloc: Job allocation " + jobId + " has been revoked."));
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

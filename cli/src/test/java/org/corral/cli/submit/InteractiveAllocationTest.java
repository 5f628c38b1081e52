package org.corral.cli.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobReply;
import org.corral.protocol.msg.WaitAllocationReply;
import org.junit.jupiter.api.Test;

/** srun's and salloc's words for each answer the controller gives while they wait. */
class InteractiveAllocationTest {

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<Request> sent = new ArrayList<>();
  private final Deque<Response> answers = new ArrayDeque<>();
  private final RpcChannel channel = r -> {
    sent.add(r);
    return answers.isEmpty() ? Response.getDefaultInstance() : answers.poll();
  };
  private final SignalQueue signals = new SignalQueue();

  private InteractiveAllocation allocation(String program) {
    return new InteractiveAllocation(program, new PrintStream(err, true, StandardCharsets.UTF_8), channel,
        signals, false);
  }

  private static Response job(JobState state, String reason) {
    return Response.newBuilder().setWaitAllocation(WaitAllocationReply.newBuilder().setJob(
        JobInfo.newBuilder().setJobId(9).setState(state).setStateReason(reason))).build();
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void anInteractiveJobIsSubmitted() throws Exception {
    answers.add(Response.newBuilder().setSubmitJob(SubmitJobReply.newBuilder().setJobId(9)).build());
    assertThat(allocation("srun").submit(JobSpec.newBuilder().setName("hostname").build())).isEqualTo(9);
    assertThat(sent.get(0).getSubmitJob().getSpec().getInteractive()).isTrue();
  }

  @Test
  void sallocSaysPendingQueuedAllocatedAndGranted() throws Exception {
    answers.add(job(JobState.PENDING, "PartitionNodeLimit"));
    answers.add(job(JobState.PENDING, "Resources"));
    answers.add(job(JobState.RUNNING, "None"));
    assertThat(allocation("salloc").awaitStart(9).getState()).isEqualTo(JobState.RUNNING);
    assertThat(err()).isEqualTo("""
        salloc: Requested partition configuration not available now
        salloc: Pending job allocation 9
        salloc: job 9 queued and waiting for resources
        salloc: job 9 has been allocated resources
        salloc: Granted job allocation 9
        """);
  }

  @Test
  void srunStartedAtOnceSaysNothing() throws Exception {
    answers.add(job(JobState.RUNNING, "None"));
    allocation("srun").awaitStart(9);
    assertThat(err()).isEmpty();
  }

  @Test
  void ctrlCWhilePendingRevokesTheJob() {
    answers.add(job(JobState.PENDING, "Resources"));
    signals.post(SignalQueue.SIGINT);
    assertThatThrownBy(() -> allocation("srun").awaitStart(9)).isInstanceOfSatisfying(CommandFailure.class, f -> {
      assertThat(f.exitStatus()).isEqualTo(1);
      assertThat(f.lines()).containsExactly("srun: Job allocation 9 has been revoked", "srun: Force Terminated JobId=9");
    });
    assertThat(sent.get(sent.size() - 1).getCancelJobs().getJobIdsList()).containsExactly(9);
    assertThat(err()).isEqualTo("srun: job 9 queued and waiting for resources\n");
  }

  @Test
  void aJobCancelledWhileWaitingEndsTheCommand() {
    answers.add(job(JobState.PENDING, "Resources"));
    answers.add(job(JobState.CANCELLED, "None"));
    assertThatThrownBy(() -> allocation("salloc").awaitStart(9)).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("salloc: Job has been cancelled",
            "salloc: Job allocation 9 has been revoked.",
            "salloc: error: Job submit/allocate failed: Job/step already completing or completed"));
  }

  @Test
  void refusedSubmissionsAsSlurmPrintsThem() {
    answers.add(Response.newBuilder().setErrorCode(SlurmError.INVALID_PARTITION_NAME.code())
        .setErrorMessage("invalid partition specified: nope").build());
    assertThatThrownBy(() -> allocation("srun").submit(JobSpec.getDefaultInstance()))
        .isInstanceOfSatisfying(CommandFailure.class, f -> assertThat(f.lines()).containsExactly(
            "srun: error: invalid partition specified: nope",
            "srun: error: Unable to allocate resources: Invalid partition name specified"));
  }

  private long now;

  private InteractiveAllocation clocked(String program) {
    // each reading of the clock is half a second later: the waits themselves are the fake's
    return new InteractiveAllocation(program, new PrintStream(err, true, StandardCharsets.UTF_8), channel,
        signals, false, () -> now += 500_000_000L);
  }

  @Test
  void bareImmediateWithdrawsAJobThatDidNotStartAtOnce() {
    answers.add(job(JobState.PENDING, "Resources"));
    assertThatThrownBy(() -> clocked("salloc").awaitStart(9, 0)).isInstanceOfSatisfying(CommandFailure.class, f -> {
      assertThat(f.exitStatus()).isEqualTo(1);
      assertThat(f.lines()).containsExactly("salloc: error: Unable to allocate resources: Requested nodes are busy",
          "salloc: Job allocation 9 has been revoked.");
    });
    assertThat(sent.get(sent.size() - 1).getCancelJobs().getJobIdsList()).containsExactly(9);
    assertThat(err()).isEmpty();
  }

  @Test
  void srunImmediateSaysTheNodesAreBusy() {
    answers.add(job(JobState.PENDING, "Resources"));
    assertThatThrownBy(() -> clocked("srun").awaitStart(9, 0)).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("srun: error: Unable to allocate resources: Requested nodes are busy"));
  }

  @Test
  void immediateSecondsWaitsThatLongThenTimesOut() {
    for (int i = 0; i < 10; i++) {
      answers.add(job(JobState.PENDING, "Resources"));
    }
    assertThatThrownBy(() -> clocked("salloc").awaitStart(9, 2)).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("salloc: error: Unable to allocate resources: Connection timed out",
            "salloc: Job allocation 9 has been revoked."));
    assertThat(err()).isEqualTo("salloc: Pending job allocation 9\nsalloc: job 9 queued and waiting for resources\n");
    // deadline 2.5 s (read at 0.5 s); checks at 1 and 2 s wait again, the one at 3 s withdraws
    long waits = sent.stream().filter(Request::hasWaitAllocation).count();
    assertThat(waits).isEqualTo(3);
    assertThat(sent.get(sent.size() - 1).getCancelJobs().getJobIdsList()).containsExactly(9);
  }

  @Test
  void aJobThatStartsWithinTheSecondsIsGranted() throws Exception {
    answers.add(job(JobState.PENDING, "Resources"));
    answers.add(job(JobState.RUNNING, "None"));
    assertThat(clocked("salloc").awaitStart(9, 30).getState()).isEqualTo(JobState.RUNNING);
    assertThat(err()).endsWith("salloc: Granted job allocation 9\n");
  }

  @Test
  void immediateTakesOnlyANumber() {
    assertThatThrownBy(() -> InteractiveAllocation.immediateSeconds("salloc", "x"))
        .isInstanceOfSatisfying(CommandFailure.class, f -> assertThat(f.lines())
            .containsExactly("salloc: error: Invalid numeric value \"x\" for immediate."));
    assertThatThrownBy(() -> InteractiveAllocation.immediateSeconds("srun", "-3"))
        .isInstanceOf(CommandFailure.class);
  }
}

package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

/** sbatch --wait's exit status, as the reference returned it (docs/compatibility.md). */
class JobWaiterTest {
  private final Deque<Object> answers = new ArrayDeque<>();
  private final List<Long> pauses = new ArrayList<>();

  private int await() {
    Cli cli = new Cli("sbatch", new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()),
        Map.of(), Clock.systemUTC(), () -> request -> {
          assertThat(request.getJobInfo().getJobIdsList()).containsExactly(7);
          Object next = answers.size() > 1 ? answers.poll() : answers.peek();
          if (next instanceof IOException e) {
            throw e;
          }
          return (Response) next;
        });
    return JobWaiter.await(7, cli, pauses::add);
  }

  private static Response jobs(JobInfo... jobs) {
    return Response.newBuilder().setJobInfo(JobInfoReply.newBuilder().addAllJobs(List.of(jobs))).build();
  }

  private static JobInfo job(JobState state, int exitStatus) {
    return JobInfo.newBuilder().setJobId(7).setState(state).setExitStatus(exitStatus).build();
  }

  @Test
  void waitsUntilTheJobHasEndedAndLeftCompleting() {
    answers.add(jobs(job(JobState.PENDING, 0)));
    answers.add(new IOException("controller away"));
    answers.add(jobs(job(JobState.RUNNING, 0)));
    answers.add(jobs(job(JobState.FAILED, 3 << 8).toBuilder().setCompleting(true).build()));
    answers.add(jobs(job(JobState.FAILED, 3 << 8)));
    assertThat(await()).isEqualTo(3);
    assertThat(pauses).containsExactly(250L, 500L, 1000L, 2000L);
  }

  @Test
  void exitStatusIsTheCodeOrOneForASignal() {
    answers.add(jobs(job(JobState.COMPLETED, 0)));
    assertThat(await()).isZero();
    answers.clear();
    answers.add(jobs(job(JobState.CANCELLED, 15))); // cancelled while running
    assertThat(await()).isEqualTo(1);
    answers.clear();
    answers.add(jobs(job(JobState.CANCELLED, 0))); // cancelled before it ran
    assertThat(await()).isZero();
    assertThat(JobWaiter.exitCode(300 << 8)).isEqualTo(44); // exit 300, as the shell truncates it
    assertThat(JobWaiter.exitCode(9)).isEqualTo(1);
  }

  @Test
  void anArrayGivesItsHighestAndAForgottenJobEndsTheWait() {
    answers.add(jobs(job(JobState.COMPLETED, 0), job(JobState.FAILED, 2 << 8).toBuilder().setJobId(8).build()));
    assertThat(await()).isEqualTo(2);
    answers.clear();
    answers.add(Response.newBuilder().setErrorCode(SlurmError.INVALID_JOB_ID.code()).build());
    assertThat(await()).isZero();
  }
}

package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.junit.jupiter.api.Test;

/** Following the controller that leads: the unreachable and the standing-by are passed over. */
class ControllerFailoverTest {
  private static final Request PING = Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build();
  private static final Response STANDBY = Response.newBuilder()
      .setErrorCode(SlurmError.IN_STANDBY_MODE.code()).build();

  /** A controller that answers as told, and remembers what it was sent. */
  private static class Fake implements RpcChannel {
    final List<Request> seen = new ArrayList<>();
    Response answer;

    Fake(Response answer) {
      this.answer = answer;
    }

    @Override
    public Response call(Request r) throws IOException {
      seen.add(r);
      if (answer == null) {
        throw new IOException("connection refused");
      }
      return answer;
    }
  }

  @Test
  void goesOnPastAnUnreachableAndAStandingByControllerAndStartsWithTheLeaderNextTime() throws Exception {
    Fake down = new Fake(null);
    Fake standby = new Fake(STANDBY);
    Fake leader = new Fake(Response.getDefaultInstance());
    ControllerFailover f = new ControllerFailover(List.of(down, standby, leader), 1000);
    assertThat(f.call(PING).getErrorCode()).isZero();
    assertThat(f.call(PING).getErrorCode()).isZero();
    assertThat(down.seen).hasSize(1);
    assertThat(standby.seen).hasSize(1);
    assertThat(leader.seen).hasSize(2);
  }

  @Test
  void aSubmissionKeepsOneIdempotencyKeyOverItsRetries() throws Exception {
    Fake down = new Fake(null);
    Fake standby = new Fake(STANDBY);
    Fake leader = new Fake(Response.getDefaultInstance());
    ControllerFailover f = new ControllerFailover(List.of(down, standby, leader), 1000);
    Request submit = Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
        .setSpec(JobSpec.newBuilder().setScript("#!/bin/sh\n"))).build();
    f.call(submit);
    String key = down.seen.get(0).getSubmitJob().getSpec().getSubmitKey();
    assertThat(key).isNotEmpty();
    assertThat(standby.seen.get(0).getSubmitJob().getSpec().getSubmitKey()).isEqualTo(key);
    assertThat(leader.seen.get(0).getSubmitJob().getSpec().getSubmitKey()).isEqualTo(key);
    f.call(submit);
    assertThat(leader.seen.get(1).getSubmitJob().getSpec().getSubmitKey()).isNotEqualTo(key); // a new submission
  }

  @Test
  void whenNoneLeadsInTimeTheLastAnswerOrFailureComesBack() {
    AtomicLong now = new AtomicLong();
    Fake down = new Fake(null) {
      @Override
      public Response call(Request r) throws IOException {
        now.addAndGet(400);
        return super.call(r);
      }
    };
    ControllerFailover onlyDown = new ControllerFailover(List.of(down, new Fake(null)), 1000, now::get);
    assertThatThrownBy(() -> onlyDown.call(PING)).isInstanceOf(IOException.class);
    ControllerFailover standingBy = new ControllerFailover(List.of(down, new Fake(STANDBY)), 1000, now::get);
    try {
      assertThat(standingBy.call(PING).getErrorCode()).isEqualTo(SlurmError.IN_STANDBY_MODE.code());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}

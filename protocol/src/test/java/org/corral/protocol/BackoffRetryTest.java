package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

class BackoffRetryTest {
  @Test
  void aRateLimitedRequestIsSentAgainAfterLongerAndLongerWaits() throws Exception {
    List<Long> waits = new ArrayList<>();
    int[] calls = {0};
    RpcChannel limitedTwice = req -> ++calls[0] <= 2
        ? Response.newBuilder().setErrorCode(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code()).build()
        : Response.newBuilder().setErrorCode(SlurmError.INVALID_JOB_ID.code()).build();
    Response r = new BackoffRetry(limitedTwice, waits::add)
        .call(Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
    assertThat(r.getErrorCode()).as("other errors are the caller's").isEqualTo(SlurmError.INVALID_JOB_ID.code());
    assertThat(calls[0]).isEqualTo(3);
    assertThat(waits).containsExactly(1000L, 2000L);
  }
}

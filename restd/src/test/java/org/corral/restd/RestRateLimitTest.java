package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The controller's per-user rate limit seen through slurmrestd: a plain user's rapid calls past
 * the bucket (2 tokens, one back a minute) are answered HTTP 502 with error 1804 at once, as
 * Slurm's slurmrestd answers them; root is never limited.
 */
class RestRateLimitTest {
  private static RestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new RestCluster("SlurmctldParameters=rl_enable,rl_bucket_size=2,rl_refill_rate=1,rl_refill_period=60");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static List<HttpResponse<String>> jobsCalls(String token, int n) throws Exception {
    List<HttpResponse<String>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(RestCalls.send(cluster.base, "GET", "/slurm/v0.0.42/jobs", token, null));
    }
    return out;
  }

  @Test
  void aPlainUsersRapidCallsGetTheRateLimitErrorAndRootNever() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users");
    String alice = RestCalls.token(cluster.cfg, TestUsers.ensure(TestUsers.ALICE).name());
    List<HttpResponse<String>> calls = jobsCalls(alice, 4);
    // the bucket's two tokens, then refused (a token comes back only after a minute)
    assertThat(calls.subList(0, 2)).allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(200));
    HttpResponse<String> limited = calls.get(3);
    assertThat(limited.statusCode()).as(limited.body()).isEqualTo(502);
    assertThat(limited.headers().firstValue("content-type")).hasValue("application/json");
    JsonNode error = Json.MAPPER.readTree(limited.body()).path("errors").path(0);
    assertThat(error.path("error_number").asInt()).isEqualTo(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code());
    assertThat(error.path("error").asString()).isEqualTo("Rate limit exceeded, please retry momentarily");

    String root = RestCalls.token(cluster.cfg, "");
    assertThat(jobsCalls(root, 6)).allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(200));
  }
}

package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.junit.jupiter.api.Test;

/** Idempotency keys: found again from the state a controller starts from, per user, while the job is there. */
class SubmitKeysTest {

  private static ClusterState submit(ClusterState s, int id, String key) {
    return TestStates.submit(s, id, TestStates.spec().setSubmitKey(key).build(), 100);
  }

  @Test
  void aKeyIsFoundFromTheStateForItsUserAloneWhileItsJobIsThere() {
    ClusterState s = submit(TestStates.cluster(1, 4, 1000), 7, "k1");
    SubmitKeys keys = SubmitKeys.of(s); // as a new leader rebuilds them
    assertThat(keys.find(s, 1000, "k1")).isEqualTo(7);
    assertThat(keys.find(s, 1001, "k1")).as("another user's key").isNull();
    assertThat(keys.find(s, 1000, "k2")).isNull();
    keys.remember(1000, "k2", 8);
    assertThat(keys.find(s, 1000, "k2")).as("remembered, but the job never made it").isNull();
    ClusterState purged = StateMachine.apply(s, new Command.PurgeJob(7));
    assertThat(keys.find(purged, 1000, "k1")).isNull();
  }
}

package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.Set;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.NodeReasons;
import org.corral.ctld.state.TestStates;
import org.junit.jupiter.api.Test;

/** A node silent past SlurmdTimeout is declared dead only when it does not answer a ping either. */
class HousekeeperLivenessTest {

  @Test
  void aSilentNodeThatAnswersIsHeardAndOneThatDoesNotGoesDown() {
    ClusterState s = TestStates.cluster(2, 2, 1000); // both last heard at 100
    long now = 100 + 31;
    try (Housekeeper h = new Housekeeper(null, null, null, null, Clock.systemUTC(), 30, 0, 0,
        n -> n.getName().equals("n1"))) {
      var cmds = h.decide(s, now, Set.of(), Set.of("n1")).commands();
      assertThat(cmds).containsExactly(new Command.NodeHeard("n1", now, 0, 0),
          new Command.NodeDown("n2", now, NodeReasons.NOT_RESPONDING));
      assertThat(h.decide(s, 100 + 20, Set.of(), Set.of()).commands()).as("not silent long enough")
          .isEmpty();
    }
  }
}

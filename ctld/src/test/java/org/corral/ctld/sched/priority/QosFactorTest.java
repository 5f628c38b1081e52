package org.corral.ctld.sched.priority;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctQos;
import org.junit.jupiter.api.Test;

/** PriorityWeightQOS: a job's QOS Priority over the highest any QOS has. */
class QosFactorTest {
  @Test
  void aJobsQosPriorityCountsAgainstTheHighest() {
    SchedulingConfig cfg = new SchedulingConfig(true, new SchedulingConfig.Weights(0, 0, 0, 0, 0, 1000, Map.of()),
        3600, false, Set.of(), 7 * 86400, 300, true, SchedulingConfig.Backfill.DEFAULTS);
    AssocTree tree = new AssocTree(ShareTreeTest.reference().snapshot().toBuilder()
        .addQos(AcctQos.newBuilder().setName("normal"))
        .addQos(AcctQos.newBuilder().setName("high").setPriority(200))
        .addQos(AcctQos.newBuilder().setName("mid").setPriority(50)).build(), "reference");
    ClusterState s = ShareTreeTest.empty();
    s = StateMachine.apply(s, new Command.SubmitJob(1, 1000, 1000, "alice", 1000, "alice",
        TestStates.spec().setAccount("physics").setQos("high").build()));
    s = StateMachine.apply(s, new Command.SubmitJob(2, 1000, 1000, "alice", 1000, "alice",
        TestStates.spec().setAccount("physics").setQos("mid").build()));
    s = StateMachine.apply(s, new Command.SubmitJob(3, 1000, 1000, "alice", 1000, "alice",
        TestStates.spec().setAccount("physics").build()));
    Command.SetPriorities p = new PriorityPass(cfg).recalc(s, 1000, tree);
    assertThat(p.priorities().get(1).factors().getQos()).isEqualTo(1.0);
    assertThat(p.priorities().get(2).factors().getQos()).isEqualTo(0.25);
    assertThat(p.priorities().get(3).factors().getQos()).isZero();
    assertThat(p.priorities().get(1).priority()).isEqualTo(1000);
    assertThat(p.priorities().get(2).priority()).isEqualTo(250);
  }
}

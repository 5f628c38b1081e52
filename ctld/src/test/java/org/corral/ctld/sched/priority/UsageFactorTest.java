package org.corral.ctld.sched.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.limits.TimeUsage;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.ShareRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** QOS UsageFactor: what a job ran counts times its QOS's factor, for fairshare and the time limits. */
class UsageFactorTest {

  private static AssocTree tree() {
    return new AssocTree(ShareTreeTest.reference().snapshot().toBuilder()
        .addQos(AcctQos.newBuilder().setName("normal"))
        .addQos(AcctQos.newBuilder().setName("double").setUsageFactor(2))
        .addQos(AcctQos.newBuilder().setName("half").setUsageFactor(0.5))
        .addQos(AcctQos.newBuilder().setName("free").setUsageFactor(0.001)).build(), "reference");
  }

  /** bob runs one job of 8 CPUs under the QOS for 300 s (no decay within). */
  private static PriorityPass ran(String qos) {
    SchedulingConfig cfg = new SchedulingConfig(true, new SchedulingConfig.Weights(0, 0, 10000, 0, 0, 0, Map.of()),
        3600, false, Set.of(), 7 * 86400, 300, true, SchedulingConfig.Backfill.DEFAULTS);
    ClusterState s = ShareTreeTest.empty();
    s = StateMachine.apply(s, new Command.SubmitJob(1, 1001, 1001, "bob", 1001, "bob",
        TestStates.spec().setAccount("theory").setQos(qos).setNumTasks(8).build()));
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, List.of(
        NodeAllocation.newBuilder().setNode("n1").setCpus(8).setMemMb(800).build())));
    PriorityPass pass = new PriorityPass(cfg);
    AssocTree tree = tree();
    pass.recalc(s, 1010, tree);
    pass.recalc(s, 1310, tree);
    return pass;
  }

  @ParameterizedTest(name = "QOS {0}: raw usage {1}, QOS CPU-seconds {2}, wall {3}")
  @CsvSource({
      // qos,  billed 8 CPUs x 300 s x factor, cpu-secs, wall-secs
      "normal, 2400, 2400, 300",
      "double, 4800, 4800, 600",
      "half,   1200, 1200, 150",
      "free,   2.4,  2.4,  0.3",
  })
  void usageCountsTimesTheQosFactor(String qos, double raw, double cpu, double wall) {
    PriorityPass pass = ran(qos);
    ShareRow bob = pass.shares().rows().stream().filter(r -> r.getUser().equals("bob")).findFirst().orElseThrow();
    assertThat(bob.getRawUsage()).isCloseTo(raw, within(1e-6));
    TimeUsage.Used used = pass.timeUsage(ShareTreeTest.empty(), 1310).byQos().get(qos);
    assertThat(used.cpuSecs()).isCloseTo(cpu, within(1e-6));
    assertThat(used.wallSecs()).isCloseTo(wall, within(1e-6));
  }

  @Test
  void aQosTheTreeDoesNotKnowCountsOnce() {
    assertThat(PriorityPass.usageFactors(AssocTree.NONE).applyAsDouble("normal")).isEqualTo(1.0);
    assertThat(PriorityPass.usageFactors(tree()).applyAsDouble("normal")).isEqualTo(1.0);
    assertThat(PriorityPass.usageFactors(tree()).applyAsDouble("double")).isEqualTo(2.0);
  }
}

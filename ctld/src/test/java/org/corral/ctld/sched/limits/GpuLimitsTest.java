package org.corral.ctld.sched.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.Plan;
import org.corral.ctld.sched.Planner;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.GresSlot;
import org.junit.jupiter.api.Test;

/** gres/gpu limits of QOS and associations hold jobs with Slurm's GRES reasons. */
class GpuLimitsTest {
  private static final LimitCheck.Enforce ALL = new LimitCheck.Enforce(true, true);

  private static AssocTree tree(AcctLimits physics, AcctQos normal) {
    return new AssocTree(AssocSnapshot.newBuilder()
        .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("physics"))
        .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
        .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root")
            .setLimits(physics))
        .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("physics").setUser("alice"))
        .addQos(normal)
        .build(), "c");
  }

  /** Two nodes of 4 GPUs; jobs asking for gpus each. */
  private static Plan plan(AssocTree t, int... gpus) {
    ClusterState s = TestStates.cluster(2, 8, 8000);
    for (String n : List.of("n1", "n2")) {
      s = StateMachine.apply(s, new Command.NodeGres(n, 100, List.of(GresSlot.newBuilder().setName("gpu")
          .setCount(4).build())));
    }
    for (int i = 0; i < gpus.length; i++) {
      s = TestStates.submit(s, i + 1, TestStates.spec().setAccount("physics")
          .setTresPerNode("gres:gpu:" + gpus[i]).build(), 1000 + i);
    }
    return Planner.plan(s, 2000, SchedulingConfig.DEFAULTS, t, ALL);
  }

  @Test
  void qosMaxGpusPerJobAndPerUser() {
    AcctQos normal = AcctQos.newBuilder().setName("normal").setMaxTresPerJob("gres/gpu=3")
        .setMaxTresPerUser("gres/gpu=4").build();
    Plan p = plan(tree(AcctLimits.getDefaultInstance(), normal), 4, 2, 2, 1);
    assertThat(p.reasons()).containsEntry(1, "QOSMaxGRESPerJob").containsEntry(4, "QOSMaxGRESPerUser");
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(2, 3);
  }

  @Test
  void qosGrpGpusAndAssociationLimits() {
    Plan p = plan(tree(AcctLimits.getDefaultInstance(), AcctQos.newBuilder().setName("normal")
        .setGrpTres("gres/gpu=3").build()), 2, 2);
    assertThat(p.reasons()).containsEntry(2, "QOSGrpGRES");
    p = plan(tree(AcctLimits.newBuilder().setMaxTresPerJob("gres/gpu=2").setGrpTres("gres/gpu=3").build(),
        AcctQos.newBuilder().setName("normal").build()), 3, 2, 2);
    assertThat(p.reasons()).containsEntry(1, "AssocMaxGRESPerJob").containsEntry(3, "AssocGrpGRES");
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(2);
  }
}

package org.corral.ctld.sched.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.sched.Plan;
import org.corral.ctld.sched.Planner;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.common.config.SchedulingConfig;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

/** Accounting limits in the plan: inheritance down the tree, Grp limits over subtrees, QOS first. */
class LimitCheckTest {
  private static final LimitCheck.Enforce ALL = new LimitCheck.Enforce(true, true);

  /** root > physics (GrpJobs 3) > theory; alice in theory; QOS normal and short (MaxWall 10). */
  private static AssocTree tree(AcctLimits physics, AcctLimits alice, AcctQos normal) {
    return new AssocTree(AssocSnapshot.newBuilder()
        .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("theory"))
        .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
        .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root")
            .setLimits(physics))
        .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("theory").setParentAccount("physics"))
        .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("c").setAccount("theory").setUser("alice")
            .setLimits(alice))
        .addQos(normal)
        .addQos(AcctQos.newBuilder().setName("short").setMaxWallMinutes(10))
        .build(), "c");
  }

  private static JobSpec.Builder job() {
    return TestStates.spec().setAccount("theory").setTimeLimitMin(60);
  }

  private static ClusterState queue(int n, JobSpec spec) {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    for (int i = 1; i <= n; i++) {
      s = TestStates.submit(s, i, spec, 1000 + i);
    }
    return s;
  }

  private static Plan plan(ClusterState s, AssocTree t) {
    return Planner.plan(s, 2000, SchedulingConfig.DEFAULTS, t, ALL);
  }

  @Test
  void maxJobsIsInheritedFromTheNearestAssociationThatSetsIt() {
    AssocTree t = tree(AcctLimits.newBuilder().setMaxJobs(2).build(), AcctLimits.getDefaultInstance(),
        AcctQos.newBuilder().setName("normal").build());
    Plan p = plan(queue(3, job().build()), t);
    assertThat(p.starts()).hasSize(2);
    assertThat(p.waiting().get(3).reason()).isEqualTo("AssocMaxJobsLimit");
  }

  @Test
  void grpJobsCountsEverythingBelowTheAssociation() {
    AssocTree t = tree(AcctLimits.newBuilder().setGrpJobs(1).build(), AcctLimits.getDefaultInstance(),
        AcctQos.newBuilder().setName("normal").build());
    ClusterState s = queue(2, job().build());
    Plan p = plan(s, t);
    assertThat(p.starts()).hasSize(1);
    assertThat(p.waiting().get(2).reason()).isEqualTo("AssocGrpJobsLimit");
    // ... and counts what already runs
    s = StateMachine.apply(s, p.starts().get(0));
    assertThat(plan(s, t).waiting().get(2).reason()).isEqualTo("AssocGrpJobsLimit");
  }

  @Test
  void wallAndCpuLimitsHoldJobsThatAskForMore() {
    AssocTree t = tree(AcctLimits.newBuilder().setGrpTres("cpu=4").build(),
        AcctLimits.newBuilder().setMaxWallMinutes(30).build(), AcctQos.newBuilder().setName("normal").build());
    assertThat(plan(queue(1, job().build()), t).waiting().get(1).reason())
        .isEqualTo("AssocMaxWallDurationPerJobLimit");
    Plan p = plan(queue(2, job().setTimeLimitMin(20).setNumTasks(3).build()), t);
    assertThat(p.starts()).hasSize(1);
    assertThat(p.waiting().get(2).reason()).isEqualTo("AssocGrpCpuLimit");
  }

  @Test
  void qosLimitsComeFirstAndNothingIsEnforcedWithoutTheTree() {
    AssocTree t = tree(AcctLimits.newBuilder().setMaxJobs(5).build(), AcctLimits.getDefaultInstance(),
        AcctQos.newBuilder().setName("normal").setMaxJobsPerUser(1).build());
    Plan p = plan(queue(2, job().build()), t);
    assertThat(p.waiting().get(2).reason()).isEqualTo("QOSMaxJobsPerUserLimit");
    assertThat(plan(queue(1, job().setQos("short").build()), t).waiting().get(1).reason())
        .isEqualTo("QOSMaxWallDurationPerJobLimit");
    assertThat(Planner.plan(queue(2, job().build()), 2000, SchedulingConfig.DEFAULTS).starts()).hasSize(2);
  }

  @Test
  void qosListsAndDefaultsAreInherited() {
    AssocTree t = new AssocTree(AssocSnapshot.newBuilder()
        .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root").setQosSet(true)
            .addQos("normal").addQos("high").setDefaultQos("high"))
        .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("a").setParentAccount("root"))
        .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("a").setUser("bob"))
        .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("other").setAccount("a").setUser("eve"))
        .build(), "c");
    AcctAssoc bob = t.assoc("bob", "a", "debug").orElseThrow();
    assertThat(t.chain(bob)).extracting(AcctAssoc::getId).containsExactly(3, 2, 1);
    assertThat(t.allowedQos(bob)).containsExactly("normal", "high");
    assertThat(t.defaultQos(bob)).isEqualTo("high");
    assertThat(t.assoc("eve", "a", "")).isEmpty(); // another cluster's
    assertThat(AssocTree.tres("cpu=4,mem=2G,node=1")).containsEntry("cpu", 4L).containsEntry("mem", 2048L)
        .containsEntry("node", 1L);
    assertThat(List.of(t.isEmpty(), AssocTree.NONE.isEmpty())).containsExactly(false, true);
  }
}

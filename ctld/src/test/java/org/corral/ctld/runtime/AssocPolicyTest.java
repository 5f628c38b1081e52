package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

/** Submissions against the associations: defaults filled in, Slurm's refusals per enforcement. */
class AssocPolicyTest {
  private static final AssocTree TREE = new AssocTree(AssocSnapshot.newBuilder()
      .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("physics").setDefaultWckey("wk1"))
      .addUsers(AcctUser.newBuilder().setName("bob").setDefaultAccount("theory"))
      .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root").setQosSet(true).addQos("normal"))
      .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("theory").setParentAccount("root")
          .setQosSet(true).addQos("normal").addQos("high").setDefaultQos("high"))
      .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("c").setAccount("physics").setUser("alice")
          .setLimits(AcctLimits.newBuilder().setMaxSubmitJobs(1)))
      .addAssocs(AcctAssoc.newBuilder().setId(5).setCluster("c").setAccount("theory").setUser("bob"))
      .addQos(AcctQos.newBuilder().setName("normal"))
      .addQos(AcctQos.newBuilder().setName("high").setPriority(10))
      .addWckeys(org.corral.protocol.msg.AcctWckey.newBuilder().setId(1).setCluster("c").setName("wk1").setUser("alice"))
      .addWckeys(org.corral.protocol.msg.AcctWckey.newBuilder().setId(2).setCluster("c").setName("wk2").setUser("alice"))
      .build(), "c");

  private static AssocPolicy policy(String... enforce) {
    return new AssocPolicy(new AssociationCache(TREE, Set.of(enforce)));
  }

  private static JobSpec.Builder spec() {
    return TestStates.spec().setPartition("debug");
  }

  private static SlurmError refusal(AssocPolicy p, JobSpec s, String user, ClusterState st) {
    try {
      p.apply(s, user, st);
      return SlurmError.SUCCESS;
    } catch (SlurmException e) {
      return e.error();
    }
  }

  @Test
  void wckeysAreKeptOnlyWhenTrackedAndRefusedWhenUnknownUnderEnforceWckeys() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    assertThat(policy("associations").apply(spec().setWckey("wk2").build(), "alice", s).getWckey()).isEmpty();
    assertThat(policy("wckeys").apply(spec().setWckey("wk2").build(), "alice", s).getWckey()).isEqualTo("wk2");
    assertThat(policy("wckeys").apply(spec().build(), "alice", s).getWckey()).isEqualTo("*wk1");
    assertThat(refusal(policy("wckeys"), spec().setWckey("wk2").build(), "bob", s)).isEqualTo(SlurmError.INVALID_WCKEY);
    assertThat(refusal(policy("wckeys"), spec().setWckey("nope").build(), "alice", s))
        .isEqualTo(SlurmError.INVALID_WCKEY);
    assertThat(policy("wckeys").apply(spec().build(), "bob", s).getWckey()).isEmpty();
  }

  @Test
  void accountAndQosDefaultFromTheUserAndTheAssociation() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    JobSpec alice = policy().apply(spec().build(), "alice", s);
    assertThat(alice.getAccount()).isEqualTo("physics");
    assertThat(alice.getQos()).isEqualTo("normal");
    JobSpec bob = policy().apply(spec().build(), "bob", s);
    assertThat(bob.getAccount()).isEqualTo("theory");
    assertThat(bob.getQos()).isEqualTo("high");
  }

  @Test
  void enforcementRefusesWithSlurmsErrors() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    assertThat(refusal(policy("associations"), spec().build(), "carol", s)).isEqualTo(SlurmError.INVALID_ACCOUNT);
    assertThat(refusal(policy("associations"), spec().setAccount("theory").build(), "alice", s))
        .isEqualTo(SlurmError.INVALID_ACCOUNT);
    assertThat(refusal(policy(), spec().setAccount("theory").build(), "alice", s)).isEqualTo(SlurmError.SUCCESS);
    assertThat(refusal(policy("qos"), spec().setQos("high").build(), "alice", s)).isEqualTo(SlurmError.INVALID_QOS);
    assertThat(refusal(policy(), spec().setQos("nosuch").build(), "alice", s)).isEqualTo(SlurmError.INVALID_QOS);
    ClusterState one = TestStates.submit(s, 1, spec().setAccount("physics").build(), 1000);
    assertThat(refusal(policy("limits"), spec().build(), "alice", one)).isEqualTo(SlurmError.ACCOUNTING_POLICY);
    assertThat(refusal(policy(), spec().build(), "alice", one)).isEqualTo(SlurmError.SUCCESS);
  }

  @Test
  void grpSubmitJobsCountsTheWholeSubtree() {
    // root > physics (GrpSubmitJobs=1) > theory: bob's job in theory counts against physics
    AssocTree tree = new AssocTree(AssocSnapshot.newBuilder()
        .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("physics"))
        .addUsers(AcctUser.newBuilder().setName("bob").setDefaultAccount("theory"))
        .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
        .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root")
            .setLimits(AcctLimits.newBuilder().setGrpSubmitJobs(1)))
        .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("theory").setParentAccount("physics"))
        .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("c").setAccount("physics").setUser("alice"))
        .addAssocs(AcctAssoc.newBuilder().setId(5).setCluster("c").setAccount("theory").setUser("bob"))
        .addQos(AcctQos.newBuilder().setName("normal")).build(), "c");
    AssocPolicy p = new AssocPolicy(new AssociationCache(tree, Set.of("limits")));
    ClusterState s = TestStates.cluster(1, 8, 4000);
    assertThat(refusal(p, spec().build(), "alice", s)).isEqualTo(SlurmError.SUCCESS);
    ClusterState one = org.corral.ctld.state.StateMachine.apply(s, new org.corral.ctld.state.Command.SubmitJob(
        1, 1000, 1002, "bob", 1002, "bob", spec().setAccount("theory").build()));
    assertThat(refusal(p, spec().build(), "alice", one)).isEqualTo(SlurmError.ACCOUNTING_POLICY);
  }

  @Test
  void partitionsAllowAndDenyAccountsAndQos() {
    ClusterState base = TestStates.cluster(1, 8, 4000);
    ClusterState s = new ClusterState(base.jobs(), base.nodes(), base.nodeOrder(), java.util.List.of(
        base.partitions().get(0).toBuilder().setAllowAccounts("theory").setAllowQos("high").build()),
        base.nextJobId(), base.lastUpdate(), base.outbox());
    assertThat(refusal(policy(), spec().build(), "alice", s)).isEqualTo(SlurmError.INVALID_ACCOUNT);
    assertThat(refusal(policy(), spec().build(), "bob", s)).isEqualTo(SlurmError.SUCCESS);
    assertThat(refusal(policy(), spec().setQos("normal").build(), "bob", s)).isEqualTo(SlurmError.INVALID_QOS);
  }

  @Test
  void denyOnLimitRefusesAJobOverItsQosLimitsAtSubmit() {
    AssocTree tree = new AssocTree(TREE.snapshot().toBuilder()
        .addQos(AcctQos.newBuilder().setName("deny").addFlags("DenyOnLimit").setMaxWallMinutes(10)).build(), "c");
    AssocPolicy limits = new AssocPolicy(new AssociationCache(tree, Set.of("limits")));
    AssocPolicy none = new AssocPolicy(new AssociationCache(tree, Set.of()));
    org.corral.protocol.msg.JobInfo over = org.corral.protocol.msg.JobInfo.newBuilder().setQos("deny")
        .setNumCpus(1).setNumNodes(1).setTimeLimitMin(11).build();
    assertThat(limits.deniesOnLimit(spec().setQos("deny").build())).isTrue();
    assertThat(limits.deniesOnLimit(spec().setQos("normal").build())).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> limits.denyOnLimit(over))
        .isInstanceOfSatisfying(SlurmException.class, e -> assertThat(e.error()).isEqualTo(SlurmError.ACCOUNTING_POLICY));
    limits.denyOnLimit(over.toBuilder().setTimeLimitMin(10).build()); // within: nothing thrown
    none.denyOnLimit(over); // limits not enforced: it would pend, not be refused
  }
}

package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.NodeAction;
import org.corral.ctld.state.NodeReasons;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.NodeFeatures;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobFinishedRequest;
import org.corral.protocol.msg.UpdateNodeRequest;
import org.junit.jupiter.api.Test;

/** scontrol update NodeName=...: who may, what is refused, and what node reports drain. */
class NodeAdminRequestsTest {
  private static final Peer ROOT = new Peer(0, 0, "root", null);
  private final Clock clock = Clock.fixed(Instant.ofEpochSecond(5000), ZoneOffset.UTC);
  private final NodeAdminRequests admin = new NodeAdminRequests(new Authorizer(450), clock, null);
  private final ClusterState s = TestStates.cluster(3, 8, 4000);

  private static UpdateNodeRequest req(String nodes, String state, String reason) {
    UpdateNodeRequest.Builder b = UpdateNodeRequest.newBuilder().setNodeNames(nodes).setState(state);
    if (reason != null) {
      b.setReason(reason).setHasReason(true);
    }
    return b.build();
  }

  private static SlurmError errorOf(Runnable r) {
    try {
      r.run();
    } catch (SlurmException e) {
      return e.error();
    }
    return SlurmError.SUCCESS;
  }

  @Test
  void rootDrainsAHostlistWithItsReason() {
    Decision<Void> d = admin.update(ROOT, req("n[1-2]", "drain", "bad disk"), s);
    assertThat(d.commands()).containsExactly(
        new Command.UpdateNode("n1", 5000, NodeAction.DRAIN, "bad disk", 0, true),
        new Command.UpdateNode("n2", 5000, NodeAction.DRAIN, "bad disk", 0, true));
  }

  @Test
  void ordinaryUsersAreRefusedAsSlurmRefusesThem() {
    assertThat(errorOf(() -> admin.update(new Peer(1000, 1000, "alice", null), req("n1", "DRAIN", "x"), s)))
        .isEqualTo(SlurmError.USER_ID_MISSING);
    // SlurmUser may.
    assertThat(admin.update(new Peer(450, 450, "slurm", null), req("n1", "DRAIN", "x"), s).commands()).hasSize(1);
  }

  @Test
  void drainAndDownNeedAReason() {
    assertThatThrownBy(() -> admin.update(ROOT, req("n1", "DOWN", null), s))
        .hasMessageContaining("You must specify a reason when DOWNING or DRAINING a node");
    assertThat(errorOf(() -> admin.update(ROOT, req("n1", "DRAIN", ""), s)))
        .isEqualTo(SlurmError.INVALID_NODE_STATE);
  }

  @Test
  void failNeedsAReasonAndIsResumed() {
    // scontrol refuses State=FAIL without Reason= with the same words as for DOWN and DRAIN
    assertThatThrownBy(() -> admin.update(ROOT, req("n1", "FAIL", null), s))
        .hasMessageContaining("You must specify a reason when DOWNING or DRAINING a node");
    assertThat(admin.update(ROOT, req("n1", "fail", "fan noise"), s).commands())
        .containsExactly(new Command.UpdateNode("n1", 5000, NodeAction.FAIL, "fan noise", 0, true));
    ClusterState failed = applied(s, req("n1", "FAIL", "fan noise"));
    assertThat(failed.nodes().get("n1").getFail()).isTrue();
    ClusterState resumed = applied(failed, req("n1", "RESUME", null));
    assertThat(resumed.nodes().get("n1").getFail()).isFalse();
  }

  @Test
  void resumeOfANodeInServiceAndUnknownNamesAreErrors() {
    assertThat(errorOf(() -> admin.update(ROOT, req("n1", "RESUME", null), s)))
        .isEqualTo(SlurmError.INVALID_NODE_STATE);
    assertThat(errorOf(() -> admin.update(ROOT, req("n9", "DRAIN", "x"), s)))
        .isEqualTo(SlurmError.INVALID_NODE_NAME);
    assertThat(errorOf(() -> admin.update(ROOT, req("n1", "BOGUS", null), s)))
        .isEqualTo(SlurmError.INVALID_NODE_STATE);
    // IDLE on a node in service is accepted (Slurm returns 0), as is RESUME after a drain.
    assertThat(admin.update(ROOT, req("n1", "IDLE", null), s).commands()).hasSize(1);
    ClusterState drained = StateMachine.apply(s,
        new Command.UpdateNode("n1", 1, NodeAction.DRAIN, "x", 0, true));
    assertThat(admin.update(ROOT, req("n1", "resume", null), drained).commands())
        .containsExactly(new Command.UpdateNode("n1", 5000, NodeAction.RESUME, "", 0, false));
  }

  @Test
  void failedPrologDrainsTheNodeAndRequeuesTheJobHeld() {
    JobFinishedRequest r = JobFinishedRequest.newBuilder().setJobId(4).setNodeName("n2")
        .setEndTime(900).setPrologFailed(true).setLaunchFailed(false).build();
    assertThat(NodeProblems.commands(r, 0)).containsExactly(
        new Command.UpdateNode("n2", 900, NodeAction.DRAIN, NodeReasons.PROLOG_ERROR, 0, true),
        new Command.RequeueJob(4, 900, true, false, NodeProblems.LAUNCH_FAILED_HELD),
        new Command.JobEnded(4, 900, 0, "n2"));
  }

  @Test
  void failedEpilogAndUnkillableProcessesDrainTheNode() {
    JobFinishedRequest epilog = JobFinishedRequest.newBuilder().setJobId(4).setNodeName("n2")
        .setEndTime(900).setExitStatus(256).setEpilogFailed(true).build();
    assertThat(NodeProblems.commands(epilog, 0)).containsExactly(
        new Command.UpdateNode("n2", 900, NodeAction.DRAIN, NodeReasons.EPILOG_ERROR, 0, true),
        new Command.JobEnded(4, 900, 256, "n2"));
    JobFinishedRequest kill = epilog.toBuilder().setEpilogFailed(false).setKillFailed(true).build();
    assertThat(NodeProblems.commands(kill, 0)).first().isEqualTo(
        new Command.UpdateNode("n2", 900, NodeAction.DRAIN, NodeReasons.KILL_TASK_FAILED, 0, true));
    assertThat(List.of(NodeReasons.KILL_TASK_FAILED)).containsExactly("Kill task failed");
  }

  /** Applies an update request to the state, as the writer thread would. */
  private ClusterState applied(ClusterState state, UpdateNodeRequest r) {
    for (Command c : admin.update(ROOT, r, state).commands()) {
      state = StateMachine.apply(state, c);
    }
    return state;
  }

  @Test
  void featuresAndWeightAsSlurm2205ChangesThem() {
    // Features= alone: the new ones become active too (no node_features plugin)
    ClusterState a = applied(s, UpdateNodeRequest.newBuilder().setNodeNames("n1").setFeatures("a,b").setWeight(5).build());
    assertThat(a.nodes().get("n1").getFeaturesList()).containsExactly("a", "b");
    assertThat(NodeFeatures.active(a.nodes().get("n1"))).containsExactly("a", "b");
    assertThat(a.nodes().get("n1").getWeight()).isEqualTo(5);
    // ActiveFeatures= a subset of them
    ClusterState b = applied(a, UpdateNodeRequest.newBuilder().setNodeNames("n1").setActiveFeatures("a").build());
    assertThat(b.nodes().get("n1").getFeaturesList()).containsExactly("a", "b");
    assertThat(NodeFeatures.active(b.nodes().get("n1"))).containsExactly("a");
    // what the reference refused, with nothing changed (Weight= included)
    for (UpdateNodeRequest bad : List.of(
        UpdateNodeRequest.newBuilder().setNodeNames("n1").setActiveFeatures("c").build(),
        UpdateNodeRequest.newBuilder().setNodeNames("n1").setFeatures("x").setWeight(3).build(),
        UpdateNodeRequest.newBuilder().setNodeNames("n1").setFeatures("p,q").setActiveFeatures("y").build())) {
      assertThat(errorOf(() -> admin.update(ROOT, bad, b))).isEqualTo(SlurmError.ACTIVE_FEATURE_NOT_SUBSET);
    }
    // both at once; and features cleared with the active ones
    ClusterState c = applied(b, UpdateNodeRequest.newBuilder().setNodeNames("n1").setFeatures("x,y").setActiveFeatures("y").build());
    assertThat(NodeFeatures.active(c.nodes().get("n1"))).containsExactly("y");
    ClusterState d = applied(c, UpdateNodeRequest.newBuilder().setNodeNames("n1").setFeatures("").setActiveFeatures("").build());
    assertThat(d.nodes().get("n1").getFeaturesList()).isEmpty();
    assertThat(NodeFeatures.active(d.nodes().get("n1"))).isEmpty();
    assertThat(d.nodes().get("n1").getWeight()).isEqualTo(5);
    // only administrators
    assertThat(errorOf(() -> admin.update(new Peer(1000, 1000, "alice", null),
        UpdateNodeRequest.newBuilder().setNodeNames("n1").setWeight(9).build(), s))).isEqualTo(SlurmError.USER_ID_MISSING);
  }
}

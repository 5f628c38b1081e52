package org.corral.ctld.state;

import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;

/**
 * How {@link Command.UpdateNode} changes a node: drain, down, fail, resume, undrain, or only its
 * reason. Part of {@link StateMachine#apply}: pure.
 */
final class NodeUpdates {
  private NodeUpdates() {}

  static ClusterState apply(ClusterState s, Command.UpdateNode c) {
    NodeInfo n = s.nodes().get(c.node());
    if (n == null) {
      return s;
    }
    if (!c.settings().equals(Command.NodeSettings.KEEP)) {
      NodeInfo.Builder set = n.toBuilder();
      settings(set, c.settings());
      n = set.build();
      s = s.withNodes(s.nodes().plus(c.node(), n), c.time());
    }
    if (c.action() == NodeAction.DOWN) {
      ClusterState down = StateMachine.nodeDown(s, new Command.NodeDown(c.node(), c.time(),
          c.setReason() ? c.reason() : n.getReason()));
      NodeInfo d = down.nodes().get(c.node());
      return down.withNodes(down.nodes().plus(c.node(), d.toBuilder().setNotResponding(false)
          .setReasonUid(c.byUid()).build()), c.time());
    }
    NodeInfo.Builder b = n.toBuilder();
    switch (c.action()) {
      case DRAIN -> b.setDrain(true);
      case FAIL -> b.setFail(true);
      case RESUME -> {
        b.setDrain(false).setFail(false);
        if (n.getBaseState() == NodeBaseState.NODE_DOWN) {
          b.setBaseState(NodeBaseState.NODE_IDLE).setNotResponding(false);
        }
      }
      case UNDRAIN -> b.setDrain(false);
      case DOWN, REASON_ONLY -> { }
    }
    boolean keepsReason = b.getDrain() || b.getFail() || b.getBaseState() == NodeBaseState.NODE_DOWN;
    if (c.setReason() && keepsReason) { // Slurm keeps no reason on a node in service
      b.setReason(c.reason()).setReasonTime(c.time()).setReasonUid(c.byUid());
    } else if (!keepsReason) {
      b.clearReason().clearReasonTime().clearReasonUid();
    }
    return s.withNodes(s.nodes().plus(c.node(), b.build()), c.time());
  }

  /**
   * Features= sets the available features and, as Slurm 22.05 does without a node_features
   * plugin, makes them the active ones too; ActiveFeatures= sets the active ones (the request
   * was checked to keep them a subset).
   */
  private static void settings(NodeInfo.Builder b, Command.NodeSettings set) {
    if (set.features() != null) {
      b.clearFeatures().addAllFeatures(set.features()).clearActiveFeatures().setActiveFeaturesSet(false);
    }
    if (set.activeFeatures() != null) {
      b.clearActiveFeatures().addAllActiveFeatures(set.activeFeatures()).setActiveFeaturesSet(true);
    }
    if (set.weight() >= 0) {
      b.setWeight((int) set.weight());
    }
  }
}

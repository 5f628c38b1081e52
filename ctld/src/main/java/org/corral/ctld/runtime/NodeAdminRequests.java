package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.NodeAction;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.NodeFeatures;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.DeleteNodeRequest;
import org.corral.protocol.msg.UpdateNodeRequest;

/**
 * {@code scontrol update NodeName=... State=... Reason=... Features=... Weight=...}: administrators
 * drain, down, fail, resume and undrain nodes and change their features and weight. Everyone else is refused as Slurm refuses them (Invalid user id).
 */
final class NodeAdminRequests {
  private final Authorizer auth;
  private final Clock clock;
  private final JobOrders orders;

  /** @param orders kills the jobs of a node set DOWN (null: leave that to the node's next heartbeat) */
  NodeAdminRequests(Authorizer auth, Clock clock, JobOrders orders) {
    this.auth = auth;
    this.clock = clock;
    this.orders = orders;
  }

  Decision<Void> update(Peer peer, UpdateNodeRequest req, ClusterState s) {
    List<String> names = adminNamed(peer, req.getNodeNames());
    NodeAction action = action(req.getState());
    if ((action == NodeAction.DRAIN || action == NodeAction.DOWN || action == NodeAction.FAIL)
        && (!req.getHasReason() || req.getReason().isEmpty())) {
      throw new SlurmException(SlurmError.INVALID_NODE_STATE,
          "You must specify a reason when DOWNING or DRAINING a node. Request denied");
    }
    long now = clock.instant().getEpochSecond();
    int uid = peer.isDaemon() ? 0 : peer.uid();
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    for (String name : names) {
      NodeInfo n = s.node(name).orElseThrow(() -> new SlurmException(SlurmError.INVALID_NODE_NAME));
      if (req.getState().equalsIgnoreCase("RESUME") && !n.getDrain() && !n.getFail()
          && n.getBaseState() != NodeBaseState.NODE_DOWN) {
        throw new SlurmException(SlurmError.INVALID_NODE_STATE);
      }
      cmds.add(new Command.UpdateNode(name, now, action, req.getReason(), uid, req.getHasReason(), settings(req, n)));
      if (action == NodeAction.DOWN && orders != null) {
        // Its jobs end (or go back to the queue) now: their processes go too, on all their nodes.
        for (JobRecord r : s.jobs().values()) {
          JobInfo j = r.getInfo();
          if (JobStates.holdsResources(j)
              && j.getAllocationList().stream().anyMatch(a -> a.getNode().equals(name))) {
            effects.addAll(orders.signal(j, 0));
          }
        }
      }
    }
    return new Decision<>(cmds, null, effects);
  }

  /**
   * {@code scontrol delete NodeName=}: administrators only; a node running (or ending) a job is
   * busy. Slurm deletes only dynamic nodes, and every node of Corral's comes from slurm.conf, so
   * a node that passes those checks is refused as not dynamic (nothing to change in the state).
   */
  void delete(Peer peer, DeleteNodeRequest req, ClusterState s) {
    List<String> names = adminNamed(peer, req.getNodeNames());
    for (String name : names) {
      s.node(name).orElseThrow(() -> new SlurmException(SlurmError.INVALID_NODE_NAME));
      for (JobRecord r : s.jobs().values()) {
        JobInfo j = r.getInfo();
        if (JobStates.holdsResources(j) && j.getAllocationList().stream().anyMatch(a -> a.getNode().equals(name))) {
          throw new SlurmException(SlurmError.NODES_BUSY, "Node " + name + " has jobs: it can not be deleted");
        }
      }
    }
    throw new SlurmException(SlurmError.INVALID_NODE_STATE,
        "Only dynamic nodes can be deleted; " + req.getNodeNames() + " is defined in slurm.conf");
  }

  /**
   * Features=, ActiveFeatures= and Weight= for one node. As in Slurm 22.05 the active features
   * must stay a subset of the available ones: those given, or the node's current ones when only
   * new available features are given (which then become the active ones too).
   */
  private static Command.NodeSettings settings(UpdateNodeRequest req, NodeInfo n) {
    List<String> avail = req.hasFeatures() ? NodeFeatures.parse(req.getFeatures()) : null;
    List<String> active = req.hasActiveFeatures() ? NodeFeatures.parse(req.getActiveFeatures()) : null;
    List<String> mustFit = active != null ? active : avail != null ? NodeFeatures.active(n) : List.of();
    if (!(avail != null ? avail : n.getFeaturesList()).containsAll(mustFit)) {
      throw new SlurmException(SlurmError.ACTIVE_FEATURE_NOT_SUBSET);
    }
    return new Command.NodeSettings(avail, active, req.hasWeight() ? Integer.toUnsignedLong(req.getWeight()) : -1);
  }

  /** The nodes an administrator names; anyone else is refused as Slurm refuses them. */
  private List<String> adminNamed(Peer peer, String hostlist) {
    if (!auth.isAdmin(peer)) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    try {
      return Hostlist.expand(hostlist);
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_NODE_NAME);
    }
  }

  /** The State= word as Slurm reads it; IDLE puts a node back in service like RESUME. */
  static NodeAction action(String state) {
    return switch (state.toUpperCase(Locale.ROOT)) {
      case "" -> NodeAction.REASON_ONLY;
      case "DRAIN" -> NodeAction.DRAIN;
      case "DOWN" -> NodeAction.DOWN;
      case "RESUME" -> NodeAction.RESUME;
      case "UNDRAIN" -> NodeAction.UNDRAIN;
      case "FAIL" -> NodeAction.FAIL;
      case "IDLE" -> NodeAction.RESUME; // without RESUME's complaint about a node in service
      default -> throw new SlurmException(SlurmError.INVALID_NODE_STATE);
    };
  }
}

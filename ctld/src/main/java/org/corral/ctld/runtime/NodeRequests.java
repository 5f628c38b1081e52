package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.NodeReasons;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobFinishedRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.RegisterNodeReply;
import org.corral.protocol.msg.RegisterNodeRequest;

/** Node daemons' requests: registration and heartbeats, and reports of ended jobs. */
final class NodeRequests {
  /** A job started this long ago that its node does not know was never launched: relaunch it. */
  private static final long RELAUNCH_AFTER_S = 5;

  private final Clock clock;
  private final JobOrders orders;
  private final int returnToService;

  NodeRequests(Clock clock, JobOrders orders, int returnToService) {
    this.clock = clock;
    this.orders = orders;
    this.returnToService = returnToService;
  }

  Decision<RegisterNodeReply> register(Peer peer, RegisterNodeRequest req, ClusterState s) {
    NodeInfo n = s.node(req.getNodeName())
        .orElseThrow(() -> new SlurmException(SlurmError.INVALID_NODE_NAME));
    checkSender(peer, n.getName());
    long now = clock.instant().getEpochSecond();
    List<Command> cmds = new ArrayList<>();
    boolean restarted = req.getSlurmdStartTime() != n.getSlurmdStartTime();
    boolean returns = switch (n.getBaseState()) {
      case NODE_UNKNOWN -> true;
      case NODE_DOWN -> returnToService == 2
          || (returnToService == 1 && n.getReason().equals(NodeReasons.NOT_RESPONDING));
      default -> false;
    };
    if (returns || (restarted && n.getBaseState() == NodeBaseState.NODE_IDLE)) {
      cmds.add(new Command.NodeRegistered(n.getName(), now, req.getCpus(), req.getRealMemoryMb(),
          req.getBootTime(), req.getSlurmdStartTime(), req.getVersion(), req.getOs(), req.getArch()));
    }
    cmds.add(new Command.NodeHeard(n.getName(), now, req.getCpuLoad(), req.getFreeMemMb()));

    Set<Integer> reported = new HashSet<>(req.getRunningJobIdsList());
    RegisterNodeReply.Builder reply = RegisterNodeReply.newBuilder();
    for (int id : reported) {
      JobRecord r = s.jobs().get(id);
      if (r == null || !JobStates.holdsResources(r.getInfo()) || !runsOn(r.getInfo(), n.getName())) {
        reply.addCancelJobIds(id);
      }
    }
    List<Runnable> effects = new ArrayList<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == org.corral.protocol.msg.JobState.RUNNING && !j.getCompleting()
          && !r.getSpec().getInteractive()
          && n.getName().equals(j.getBatchHost()) && !reported.contains(j.getJobId())
          && now - j.getStartTime() >= RELAUNCH_AFTER_S) {
        effects.add(orders.launch(s, j.getJobId()));
      }
    }
    return new Decision<>(cmds, reply.build(), effects);
  }

  Decision<Void> finished(Peer peer, JobFinishedRequest req, ClusterState s) {
    checkSender(peer, req.getNodeName());
    JobRecord r = s.jobs().get(req.getJobId());
    if (r == null || !JobStates.holdsResources(r.getInfo())
        || !runsOn(r.getInfo(), req.getNodeName())) {
      return Decision.none(null); // already recorded: acknowledge again so the node forgets it
    }
    Command c = req.getLaunchFailed()
        ? new Command.LaunchFailed(req.getJobId(), req.getEndTime(), req.getMessage())
        : new Command.JobEnded(req.getJobId(), req.getEndTime(), req.getExitStatus(),
            req.getNodeName(), req.getOutOfMemory());
    return Decision.of(null, c);
  }

  /** A node daemon speaks only for itself (the controller, holding the key too, for any). */
  static void checkSender(Peer peer, String node) {
    if (!peer.isDaemon() || !(peer.daemon().equals(node) || peer.daemon().equals("slurmctld"))) {
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
  }

  private static boolean runsOn(JobInfo j, String node) {
    return j.getAllocationList().stream().anyMatch(a -> a.getNode().equals(node));
  }
}

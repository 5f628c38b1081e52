package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.NodeReasons;
import org.corral.protocol.Peer;
import org.corral.ctld.state.NodeAction;
import org.corral.protocol.msg.JobEndingRequest;
import org.corral.protocol.msg.JobFinishedRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeHookDoneRequest;
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
  private final int slurmUid;

  /** @param slurmUid SlurmUser's uid: the controller's own drains are attributed to it */
  NodeRequests(Clock clock, JobOrders orders, int returnToService, int slurmUid) {
    this.clock = clock;
    this.orders = orders;
    this.returnToService = returnToService;
    this.slurmUid = slurmUid;
  }

  Decision<RegisterNodeReply> register(Peer peer, RegisterNodeRequest req, ClusterState s) {
    NodeInfo n = s.node(req.getNodeName())
        .orElseThrow(() -> new SlurmException(SlurmError.INVALID_NODE_NAME));
    checkSender(peer, n.getName());
    long now = clock.instant().getEpochSecond();
    List<Command> cmds = new ArrayList<>();
    boolean restarted = req.getSlurmdStartTime() != n.getSlurmdStartTime();
    // Heartbeats re-register too; only a slurmd (re)start returns a node set DOWN for another
    // reason than silence (ReturnToService=2), as only a real registration does in Slurm.
    boolean silent = n.getReason().equals(NodeReasons.NOT_RESPONDING);
    boolean returns = switch (n.getBaseState()) {
      case NODE_UNKNOWN -> true;
      case NODE_DOWN -> (returnToService == 2 && (silent || restarted))
          || (returnToService == 1 && silent);
      default -> false;
    };
    if (returns || (restarted && n.getBaseState() == NodeBaseState.NODE_IDLE)) {
      cmds.add(new Command.NodeRegistered(n.getName(), now, req.getCpus(), req.getRealMemoryMb(),
          req.getBootTime(), req.getSlurmdStartTime(), req.getVersion(), req.getOs(), req.getArch()));
    }
    cmds.add(new Command.NodeHeard(n.getName(), now, req.getCpuLoad(), req.getFreeMemMb()));
    if (req.getGresReported()) {
      cmds.addAll(gres(n, req, now));
    }
    if (restarted) { // an Epilog the earlier daemon ran is lost with it: do not wait for it
      for (JobRecord r : s.jobs().values()) {
        epilogDone(r.getInfo(), n.getName(), now).ifPresent(cmds::add);
      }
    }

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

  /**
   * The generic resources a node reported: kept when they changed, and a node with fewer than
   * slurm.conf's Gres= says is drained with Slurm's reason (gres/gpu count reported lower than
   * configured (1 < 2)).
   */
  private List<Command> gres(NodeInfo n, RegisterNodeRequest req, long now) {
    List<Command> out = new ArrayList<>();
    List<org.corral.protocol.msg.GresSlot> configured;
    try {
      configured = org.corral.protocol.Gres.slotsFromConfig(n.getGres());
    } catch (IllegalArgumentException e) {
      configured = List.of();
    }
    for (String name : org.corral.protocol.Gres.names(configured)) {
      long want = org.corral.protocol.Gres.total(configured, name, "");
      long found = org.corral.protocol.Gres.total(req.getGresList(), name, "");
      if (found < want) {
        String reason = "gres/" + name + " count reported lower than configured (" + found + " < " + want + ")";
        if (!n.getDrain() || !n.getReason().equals(reason)) {
          out.add(new Command.UpdateNode(n.getName(), now, NodeAction.DRAIN, reason, slurmUid, true));
        }
        return out; // what it has stays as configured until it reports enough
      }
    }
    if (!req.getGresList().equals(n.getGresSlotsList())) {
      out.add(new Command.NodeGres(n.getName(), now, req.getGresList()));
    }
    return out;
  }

  Decision<Void> finished(Peer peer, JobFinishedRequest req, ClusterState s) {
    checkSender(peer, req.getNodeName());
    JobRecord r = s.jobs().get(req.getJobId());
    if (r == null || !JobStates.holdsResources(r.getInfo())
        || !runsOn(r.getInfo(), req.getNodeName())) {
      return Decision.none(null); // already recorded: acknowledge again so the node forgets it
    }
    // The batch host ran its Epilog already; the job's other nodes run theirs now, and stay
    // the job's until each reports it done.
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    if (!req.getPrologFailed()) {
      List<String> others = orders.epilogNodes(r.getInfo());
      if (!others.isEmpty()) {
        cmds.add(new Command.EpilogNodes(req.getJobId(), others, req.getEndTime()));
        effects.addAll(orders.epilogs(r.getInfo(), req.getExitStatus()));
      }
    }
    cmds.addAll(NodeProblems.commands(req, slurmUid));
    return new Decision<>(cmds, null, effects);
  }

  /** The batch script ended on the node and its Epilog runs: the job is COMPLETING meanwhile. */
  Decision<Void> ending(Peer peer, JobEndingRequest req, ClusterState s) {
    checkSender(peer, req.getNodeName());
    return Decision.of(null, new Command.JobEnding(req.getJobId(), req.getEndTime(),
        req.getExitStatus(), req.getNodeName()));
  }

  /**
   * A Prolog failed, or an Epilog ended, on one of a job's other nodes. A failure drains the
   * node; after a failed Prolog the job is killed everywhere and requeued, held; after an
   * Epilog the node is no longer the job's.
   */
  Decision<Void> hookDone(Peer peer, NodeHookDoneRequest req, ClusterState s) {
    checkSender(peer, req.getNodeName());
    s.node(req.getNodeName()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_NODE_NAME));
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    if (req.getFailed()) {
      cmds.add(new Command.UpdateNode(req.getNodeName(), req.getTime(), NodeAction.DRAIN,
          req.getEpilog() ? NodeReasons.EPILOG_ERROR : NodeReasons.PROLOG_ERROR, slurmUid, true));
    }
    JobRecord r = s.jobs().get(req.getJobId());
    if (req.getEpilog() && r != null) {
      epilogDone(r.getInfo(), req.getNodeName(), req.getTime()).ifPresent(cmds::add);
    }
    if (req.getFailed() && !req.getEpilog() && r != null && r.getInfo().getState() == JobState.RUNNING
        && !r.getInfo().getCompleting()) {
      // Only batch jobs go back to the queue; an srun/salloc allocation is cancelled.
      cmds.add(r.getInfo().getInteractive()
          ? new Command.CancelJob(req.getJobId(), req.getTime(), slurmUid)
          : new Command.RequeueJob(req.getJobId(), req.getTime(), true, false,
              NodeProblems.LAUNCH_FAILED_HELD));
      effects.addAll(orders.signal(r.getInfo(), 0));
    }
    return new Decision<>(cmds, null, effects);
  }

  /** The node is done with the job's Epilog: it leaves the job's list of nodes still in one. */
  private static Optional<Command> epilogDone(JobInfo j, String node, long time) {
    if (!JobStates.holdsResources(j) || !j.getEpilogNodesList().contains(node)) {
      return Optional.empty();
    }
    List<String> left = new ArrayList<>(j.getEpilogNodesList());
    left.remove(node);
    return Optional.of(new Command.EpilogNodes(j.getJobId(), left, time));
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

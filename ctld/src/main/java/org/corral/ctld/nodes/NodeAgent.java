package org.corral.ctld.nodes;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.corral.protocol.Credentials;
import org.corral.protocol.TcpChannel;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.FileBcastError;
import org.corral.protocol.msg.FileBcastRequest;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.NodeHookRequest;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.SignalTasksRequest;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SignalJobRequest;
import org.corral.protocol.msg.StepStatReply;
import org.corral.protocol.msg.StepStatRequest;

/**
 * Sends the controller's orders to node daemons: launch a batch job, signal one. Runs on the
 * caller's (virtual) thread and retries with backoff; node daemons treat repeats as no-ops
 * (keyed by job id), so a retry after a lost reply does no harm.
 */
public final class NodeAgent {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private static final long[] BACKOFF_MS = {0, 200, 500, 1000, 2000, 4000};

  private final Credentials credentials;
  private final Duration timeout;
  private final Map<String, TcpChannel> channels = new ConcurrentHashMap<>();

  public NodeAgent(Credentials credentials, Duration timeout) {
    this.credentials = credentials;
    this.timeout = timeout;
  }

  /** Launches a batch job; returns false if the node could not be reached or refused it. */
  public boolean launch(NodeInfo node, LaunchBatchRequest launch) {
    return send(node, Request.newBuilder().setLaunchBatch(launch).build(),
        "launch job " + launch.getJob().getJobId());
  }

  public boolean signal(NodeInfo node, SignalJobRequest signal) {
    return send(node, Request.newBuilder().setSignalJob(signal).build(),
        "signal job " + signal.getJobId());
  }

  /** Orders a job's Prolog or Epilog on a node that is not its batch host. */
  public boolean nodeHook(NodeInfo node, NodeHookRequest hook) {
    return send(node, Request.newBuilder().setNodeHook(hook).build(),
        (hook.getEpilog() ? "epilog" : "prolog") + " of job " + hook.getJob().getJobId());
  }

  /** Tells a node daemon to re-read its configuration (scontrol reconfigure); false if unreachable or refused. */
  public boolean reconfigure(NodeInfo node, org.corral.protocol.msg.NodeReconfigureRequest req) {
    return send(node, Request.newBuilder().setNodeReconfigure(req).build(), "reconfigure");
  }

  /** Launches a node's share of a step's tasks; false if unreachable or refused. */
  public boolean launchTasks(NodeInfo node, LaunchTasksRequest launch) {
    return send(node, Request.newBuilder().setLaunchTasks(launch).build(),
        "launch step " + launch.getJob().getJobId() + "." + launch.getStep().getStepId());
  }

  public boolean signalTasks(NodeInfo node, SignalTasksRequest signal) {
    return send(node, Request.newBuilder().setSignalTasks(signal).build(),
        "signal step " + signal.getJobId() + "." + signal.getStepId());
  }

  /**
   * Asks a node for the usage of a job's steps running there (sstat): one try, no retries, since
   * a user waits for the answer. Empty when the node cannot be reached or refuses.
   */
  public java.util.Optional<StepStatReply> stepStat(NodeInfo node, StepStatRequest req) {
    String host = node.getAddr().isEmpty() ? node.getHostname() : node.getAddr();
    try {
      Response r = channel(host, node.getPort()).call(Request.newBuilder().setNodeStepStat(req).build());
      if (r.getErrorCode() == 0) {
        return java.util.Optional.of(r.getStepStat());
      }
      LOG.log(Level.WARNING, "step usage of job " + req.getJobId() + " on " + node.getName() + " refused: "
          + r.getErrorMessage());
    } catch (IOException e) {
      LOG.log(Level.WARNING, "step usage of job " + req.getJobId() + ": node " + node.getName()
          + " unreachable: " + e.getMessage());
    }
    return java.util.Optional.empty();
  }

  /**
   * Sends a block of an sbcast file to a node: one try, since sbcast waits for the answer. The
   * node's failures (or its being unreachable) come back with its name, as sbcast prints them.
   */
  public java.util.List<FileBcastError> fileBcast(NodeInfo node, FileBcastRequest block) {
    String host = node.getAddr().isEmpty() ? node.getHostname() : node.getAddr();
    try {
      Response r = channel(host, node.getPort()).call(Request.newBuilder().setNodeFileBcast(block).build());
      if (r.getErrorCode() != 0) {
        return java.util.List.of(FileBcastError.newBuilder().setNode(node.getName()).setErrno(r.getErrorCode())
            .setMessage(r.getErrorMessage()).build());
      }
      return r.getFileBcast().getErrorsList().stream().map(e -> e.toBuilder().setNode(node.getName()).build())
          .toList();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "sbcast block of job " + block.getJobId() + ": node " + node.getName()
          + " unreachable: " + e.getMessage());
      return java.util.List.of(FileBcastError.newBuilder().setNode(node.getName()).setErrno(SlurmError.CONNECTION_ERROR.code())
          .setMessage(SlurmError.CONNECTION_ERROR.message()).build());
    }
  }

  /**
   * Whether the node's daemon answers: the controller asks it itself, on a connection of its own
   * making, so no flood of connections to the controller can make a live node look dead. One
   * try within the agent's timeout.
   */
  public boolean ping(NodeInfo node) {
    String host = node.getAddr().isEmpty() ? node.getHostname() : node.getAddr();
    try {
      Response r = channel(host, node.getPort()).call(Request.newBuilder()
          .setPing(org.corral.protocol.msg.PingRequest.getDefaultInstance()).build());
      return r.getErrorCode() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** One channel per node address, so that its connections are reused from call to call. */
  private TcpChannel channel(String host, int port) {
    return channels.computeIfAbsent(host + ":" + port, key -> new TcpChannel(host, port, credentials, timeout));
  }

  private boolean send(NodeInfo node, Request request, String what) {
    String host = node.getAddr().isEmpty() ? node.getHostname() : node.getAddr();
    String last = "";
    for (long delay : BACKOFF_MS) {
      try {
        Thread.sleep(delay);
        Response r = channel(host, node.getPort()).call(request);
        if (r.getErrorCode() == 0) {
          return true;
        }
        LOG.log(Level.WARNING, what + " on " + node.getName() + " refused: " + r.getErrorMessage());
        return false;
      } catch (IOException e) {
        last = e.getMessage();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    LOG.log(Level.WARNING, what + ": node " + node.getName() + " unreachable: " + last);
    return false;
  }
}

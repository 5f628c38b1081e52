package org.corral.launcher;

import java.io.IOException;
import org.corral.common.config.SlurmConfig;
import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.ControllerFailover;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Asks a starting cluster whether it is ready, over the controller's local socket. */
final class ClusterProbe {
  private ClusterProbe() {}

  /** Waits until the controller answers a ping; false if it died or time ran out. */
  static boolean awaitController(SlurmConfig cfg, Daemon ctld, long timeoutMs) throws InterruptedException {
    return awaitPing(new UnixSocketChannel(ControllerAddress.unixSocket(cfg)), ctld, timeoutMs);
  }

  /**
   * Waits until slurmdbd answers a ping on its local socket (its database opened and migrated),
   * so the controller's first records find it; false if it died or time ran out.
   */
  static boolean awaitDbd(java.nio.file.Path socket, Daemon dbd, long timeoutMs) throws InterruptedException {
    return awaitPing(new UnixSocketChannel(socket), dbd, timeoutMs);
  }

  private static boolean awaitPing(UnixSocketChannel ch, Daemon daemon, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    boolean seenRunning = false;
    while (System.currentTimeMillis() < deadline) {
      try {
        if (ch.call(Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build())
            .getErrorCode() == 0) {
          return true;
        }
      } catch (IOException e) {
        // not listening yet
      }
      boolean running = daemon.running().isPresent();
      if (seenRunning && !running) {
        return false;
      }
      seenRunning |= running;
      Thread.sleep(200);
    }
    return false;
  }

  /** Waits until every configured node is registered and answering. */
  static boolean awaitNodesUp(SlurmConfig cfg, long timeoutMs) throws InterruptedException {
    RpcChannel ch = new UnixSocketChannel(ControllerAddress.unixSocket(cfg));
    if (cfg.replicatedControllers()) { // whichever leads
      List<RpcChannel> all = new ArrayList<>();
      for (int i = 0; i < cfg.controllers().size(); i++) {
        all.add(new UnixSocketChannel(ControllerAddress.unixSocket(cfg, i)));
      }
      ch = new ControllerFailover(all, 5_000);
    }
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      try {
        Response r = ch.call(Request.newBuilder().setNodeInfo(NodeInfoRequest.getDefaultInstance()).build());
        if (r.getErrorCode() == 0 && r.getNodeInfo().getNodesList().stream().allMatch(ClusterProbe::up)) {
          return true;
        }
      } catch (IOException e) {
        // controller restarting
      }
      Thread.sleep(250);
    }
    return false;
  }

  private static boolean up(NodeInfo n) {
    return n.getBaseState() == NodeBaseState.NODE_IDLE && !n.getNotResponding()
        || n.getBaseState() == NodeBaseState.NODE_FUTURE;
  }
}

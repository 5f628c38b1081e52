package org.corral.slurmd.hooks;

import org.corral.protocol.msg.NodeHookRequest;

/**
 * Runs the Prolog or Epilog the controller orders for a job whose batch host is another node,
 * off the caller's thread (the order is answered at once), and tells the listener when one
 * fails so that the controller drains this node.
 */
public final class AllocationHooks {
  /** Told when a hook failed here. */
  @FunctionalInterface
  public interface FailureListener {
    void hookFailed(int jobId, boolean epilog);
  }

  private final NodeJobHooks hooks;
  private final FailureListener listener;

  public AllocationHooks(NodeJobHooks hooks, FailureListener listener) {
    this.hooks = hooks;
    this.listener = listener;
  }

  public void submit(NodeHookRequest req) {
    Thread.ofVirtual().name("hook-" + req.getJob().getJobId()).start(() -> {
      if (!hooks.runForAllocation(req)) {
        listener.hookFailed(req.getJob().getJobId(), req.getEpilog());
      }
    });
  }
}

package org.corral.slurmd.hooks;

import org.corral.protocol.msg.NodeHookRequest;

/**
 * Runs the Prolog or Epilog the controller orders for a job whose batch host is another node,
 * off the caller's thread (the order is answered at once). The listener hears of a failed
 * Prolog (the controller drains this node and requeues the job) and of every Epilog's end (the
 * job keeps this node until then; a failed one drains it).
 */
public final class AllocationHooks {
  /** Told when a Prolog failed or an Epilog ended here. */
  @FunctionalInterface
  public interface Listener {
    void hookDone(int jobId, boolean epilog, boolean failed);
  }

  private final NodeJobHooks hooks;
  private final Listener listener;

  public AllocationHooks(NodeJobHooks hooks, Listener listener) {
    this.hooks = hooks;
    this.listener = listener;
  }

  public void submit(NodeHookRequest req) {
    Thread.ofVirtual().name("hook-" + req.getJob().getJobId()).start(() -> {
      boolean ok = hooks.runForAllocation(req);
      if (req.getEpilog() || !ok) {
        listener.hookDone(req.getJob().getJobId(), req.getEpilog(), !ok);
      }
    });
  }
}

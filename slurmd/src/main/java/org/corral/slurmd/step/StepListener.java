package org.corral.slurmd.step;

import org.corral.protocol.msg.StepFinishedRequest;

/** Told once when this node's share of a step has ended (all its tasks here exited, or never started). */
@FunctionalInterface
public interface StepListener {
  /** Called from any thread. */
  void finished(StepFinishedRequest report);
}

package org.corral.slurmd.launch;

import java.util.concurrent.atomic.AtomicBoolean;

/** A job this supervisor watches: its spool directory, when it was launched, whether it has ended. */
final class TrackedJob {
  private final JobDirectory dir;
  private final boolean adopted;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile boolean terminated;
  private volatile long launchedAtNanos;
  private volatile boolean launched;

  /** @param adopted true for a job found in the spool (watched by polling), false for one started here */
  TrackedJob(JobDirectory dir, boolean adopted) {
    this.dir = dir;
    this.adopted = adopted;
  }

  JobDirectory dir() {
    return dir;
  }

  boolean adopted() {
    return adopted;
  }

  /** The launch request went to the node's launcher at {@code nanoTime}. */
  void launched(long nanoTime) {
    launchedAtNanos = nanoTime;
    launched = true;
  }

  boolean launched() {
    return launched;
  }

  long launchedAtNanos() {
    return launchedAtNanos;
  }

  /** The controller ordered it ended (perhaps before its script started: while its Prolog ran). */
  void terminate() {
    terminated = true;
  }

  boolean terminated() {
    return terminated;
  }

  boolean hasEnded() {
    return ended.get();
  }

  /** True exactly once: for the caller that gets to report the end. */
  boolean markEnded() {
    return ended.compareAndSet(false, true);
  }
}

package org.corral.protocol;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Closes a channel if an I/O step has not finished in time. Blocking socket channels (and all
 * Unix domain ones) have no read timeout, so closing from outside is what unblocks them.
 */
final class Deadline implements AutoCloseable {
  private static final ScheduledThreadPoolExecutor TIMER = createTimer();

  private final AtomicBoolean expired = new AtomicBoolean();
  private final ScheduledFuture<?> task;

  private Deadline(Duration after, Closeable target) {
    this.task = TIMER.schedule(() -> {
      expired.set(true);
      try {
        target.close();
      } catch (IOException ignored) {
        // Already closed or broken: either way it no longer blocks anyone.
      }
    }, after.toNanos(), TimeUnit.NANOSECONDS);
  }

  static Deadline after(Duration after, Closeable target) {
    return new Deadline(after, target);
  }

  /** Whether the deadline passed and the target was closed. */
  boolean expired() {
    return expired.get();
  }

  @Override
  public void close() {
    task.cancel(false);
  }

  private static ScheduledThreadPoolExecutor createTimer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "corral-io-deadlines");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}

package org.corral.protocol.metrics;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Durations counted into fixed buckets (100 µs to 10 s, about three per decade), lock-free: the
 * scheduler, the writer and RPC threads record, a scrape reads a snapshot.
 */
public final class Histogram {
  static final double[] BOUNDS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
      0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final AtomicLongArray buckets = new AtomicLongArray(BOUNDS.length + 1);
  private final LongAdder sumNanos = new LongAdder();

  public void record(long nanos) {
    double seconds = nanos / 1e9;
    int i = 0;
    while (i < BOUNDS.length && seconds > BOUNDS[i]) {
      i++;
    }
    buckets.incrementAndGet(i);
    sumNanos.add(nanos);
  }

  /** Counts so far (each bucket counts durations up to its bound, as Prometheus' le does). */
  public record Snapshot(double[] bounds, long[] cumulative, long count, double sumSeconds) {}

  public Snapshot snapshot() {
    long[] cumulative = new long[BOUNDS.length];
    long running = 0;
    for (int i = 0; i < BOUNDS.length; i++) {
      running += buckets.get(i);
      cumulative[i] = running;
    }
    long count = running + buckets.get(BOUNDS.length);
    return new Snapshot(BOUNDS, cumulative, count, sumNanos.sum() / 1e9);
  }
}

package org.corral.restd;

import java.util.concurrent.Semaphore;

/**
 * How many whole-queue reads (GET jobs, jobs/state, slurmdb jobs) slurmrestd builds at once. Each
 * holds the controller's answer, its JSON tree and the written bytes in memory at the same time
 * (about 33 MB of JSON for 10,000 jobs, several times that on the heap): eight at once ran a
 * 512 MB slurmrestd out of heap (measured, docs/BENCHMARKS.md), and so did two at once (the written JSON alone can take 130 MB when a job field is not Latin-1), failing every other request with them.
 * One read per 512 MB of heap may run; the others wait their turn, as Slurm's slurmrestd makes
 * requests wait for one of its threads.
 */
final class BulkReads {
  private static final long HEAP_PER_READ = 512L << 20;
  private final Semaphore permits;

  BulkReads(long maxHeapBytes) {
    this.permits = new Semaphore(permitsFor(maxHeapBytes), true);
  }

  /** The number of whole-queue reads a heap of {@code maxHeapBytes} may build at once (at least one). */
  static int permitsFor(long maxHeapBytes) {
    return (int) Math.max(1, Math.min(64, maxHeapBytes / HEAP_PER_READ));
  }

  /** Whether answering {@code r} builds the whole queue. */
  static boolean isBulk(Routes.Route r) {
    return r.method().equals("GET") && (r.specPath().endsWith("/jobs/") || r.specPath().endsWith("/jobs/state/"));
  }

  /** Takes a turn; the caller releases it with {@link #release()}. */
  void acquire() throws InterruptedException {
    permits.acquire();
  }

  void release() {
    permits.release();
  }

  /** Turns free now (for tests and diagnostics). */
  int available() {
    return permits.availablePermits();
  }
}

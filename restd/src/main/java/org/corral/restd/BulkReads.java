package org.corral.restd;

import java.util.concurrent.Semaphore;

/**
 * How many whole-queue reads (GET jobs, jobs/state, slurmdb jobs) slurmrestd answers at once.
 * v0.0.42's are streamed (each job's JSON made as it is sent), so one holds about the
 * controller's answer: some 2 KB a job. v0.0.41's are mapped onto the older schemas as a whole
 * document (tens of MB of JSON for 10,000 jobs, several times that on the heap): eight of those
 * at once ran a 512 MB slurmrestd out of heap (docs/BENCHMARKS.md). A read takes one turn per
 * 64 MB of heap it may need (a v0.0.41 one eight); the others wait, as Slurm's slurmrestd makes
 * requests wait for one of its threads.
 */
final class BulkReads {
  private static final long HEAP_PER_TURN = 64L << 20;
  private static final int WHOLE_DOCUMENT_TURNS = 8;
  private final int turns;
  private final Semaphore permits;

  BulkReads(long maxHeapBytes) {
    this.turns = permitsFor(maxHeapBytes);
    this.permits = new Semaphore(turns, true);
  }

  /** The turns a heap of {@code maxHeapBytes} has (at least one). */
  static int permitsFor(long maxHeapBytes) {
    return (int) Math.max(1, Math.min(256, maxHeapBytes / HEAP_PER_TURN));
  }

  /** The turns a read of {@code r} takes (never more than there are). */
  int weight(Routes.Route r) {
    return Math.min(turns, r.v41() ? WHOLE_DOCUMENT_TURNS : 1);
  }

  /** Whether answering {@code r} builds the whole queue. */
  static boolean isBulk(Routes.Route r) {
    return r.method().equals("GET") && (r.specPath().endsWith("/jobs/") || r.specPath().endsWith("/jobs/state/"));
  }

  /** Takes {@code n} turns; the caller gives them back with {@link #release(int)}. */
  void acquire(int n) throws InterruptedException {
    permits.acquire(n);
  }

  void release(int n) {
    permits.release(n);
  }

  /** Turns free now (for tests and diagnostics). */
  int available() {
    return permits.availablePermits();
  }
}

package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BulkReadsTest {
  private static Routes.Route route(String method, String specPath) {
    return Routes.all().stream().filter(r -> r.method().equals(method) && r.specPath().equals(specPath))
        .findFirst().orElseThrow();
  }

  @Test
  void wholeQueueReadsAreTheBulkOnesOfEitherVersion() {
    assertThat(BulkReads.isBulk(route("GET", "/slurm/v0.0.42/jobs/"))).isTrue();
    assertThat(BulkReads.isBulk(route("GET", "/slurm/v0.0.41/jobs/state/"))).isTrue();
    assertThat(BulkReads.isBulk(route("GET", "/slurmdb/v0.0.42/jobs/"))).isTrue();
    assertThat(BulkReads.isBulk(route("GET", "/slurm/v0.0.42/job/{job_id}"))).isFalse();
    assertThat(BulkReads.isBulk(route("POST", "/slurm/v0.0.42/job/submit"))).isFalse();
  }

  @Test
  void oneTurnPer64MegabytesOfHeapAtLeastOneAndWholeDocumentsTakeEight() {
    assertThat(BulkReads.permitsFor(32L << 20)).isEqualTo(1);
    assertThat(BulkReads.permitsFor(512L << 20)).isEqualTo(8);
    assertThat(BulkReads.permitsFor(2L << 30)).isEqualTo(32);
    BulkReads reads = new BulkReads(512L << 20);
    assertThat(reads.weight(route("GET", "/slurm/v0.0.42/jobs/"))).as("streamed").isEqualTo(1);
    assertThat(reads.weight(route("GET", "/slurm/v0.0.41/jobs/"))).as("a whole document").isEqualTo(8);
    assertThat(new BulkReads(128L << 20).weight(route("GET", "/slurm/v0.0.41/jobs/"))).isEqualTo(2);
  }

  @Test
  void aReadBeyondThePermitsWaitsForOneToFinish() throws Exception {
    BulkReads reads = new BulkReads(64L << 20);
    reads.acquire(1);
    AtomicBoolean second = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread t = Thread.ofVirtual().start(() -> {
      try {
        reads.acquire(1);
        second.set(true);
        reads.release(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      done.countDown();
    });
    while (t.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    assertThat(second).isFalse();
    reads.release(1);
    done.await();
    assertThat(second).isTrue();
    assertThat(reads.available()).isEqualTo(1);
  }
}

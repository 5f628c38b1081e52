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
  void oneReadPer512MegabytesOfHeapAtLeastOne() {
    assertThat(BulkReads.permitsFor(64L << 20)).isEqualTo(1);
    assertThat(BulkReads.permitsFor(512L << 20)).isEqualTo(1);
    assertThat(BulkReads.permitsFor(2L << 30)).isEqualTo(4);
  }

  @Test
  void aReadBeyondThePermitsWaitsForOneToFinish() throws Exception {
    BulkReads reads = new BulkReads(512L << 20);
    reads.acquire();
    AtomicBoolean second = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread t = Thread.ofVirtual().start(() -> {
      try {
        reads.acquire();
        second.set(true);
        reads.release();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      done.countDown();
    });
    while (t.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    assertThat(second).isFalse();
    reads.release();
    done.await();
    assertThat(second).isTrue();
    assertThat(reads.available()).isEqualTo(1);
  }
}

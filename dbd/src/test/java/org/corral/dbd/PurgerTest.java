package org.corral.dbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.corral.common.config.ConfigException;
import org.corral.dbd.config.DbdConfig;
import org.corral.dbd.config.DbdConfig.PurgeAge;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobSelection;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PurgeJobAfter/PurgeStepAfter with ArchiveJobs: old records go, archived first; recent ones stay. */
class PurgerTest {
  private static final long DAY = 86400;
  private static final Instant NOW = Instant.ofEpochSecond(100 * DAY);

  @TempDir Path dir;

  private static AcctJob job(int id, long end) {
    return AcctJob.newBuilder().setJobId(id).setSubmitTime(id * 60L).setStartTime(id * 60L + 10).setEndTime(end)
        .setState(end == 0 ? JobState.RUNNING : JobState.COMPLETED).setUserId(1000)
        .addSteps(AcctStep.newBuilder().setStepId(0).setName("step")).build();
  }

  @Test
  void oldRecordsAreArchivedThenDeletedAndRecentOnesKept() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      JobStore store = new JobStore(db);
      List<AcctEvent> events = new ArrayList<>();
      long[] ends = {10 * DAY, 50 * DAY, 98 * DAY, 100 * DAY - 3600, 0};
      for (int i = 0; i < ends.length; i++) {
        events.add(AcctEvent.newBuilder().setEventId(i + 1).setJob(job(i + 1, ends[i])).build());
      }
      store.store("c", events);
      Purger purger = new Purger(store, Optional.of(new PurgeAge(30, ChronoUnit.DAYS)),
          Optional.of(new PurgeAge(12, ChronoUnit.HOURS)), Optional.of(dir.resolve("archive")),
          Clock.fixed(NOW, ZoneOffset.UTC));
      assertThat(purger.run()).isEqualTo(2);

      List<AcctJob> left = store.find(new JobSelection());
      assertThat(left).extracting(AcctJob::getJobId).containsExactly(3, 4, 5);
      assertThat(left.get(0).getStepsList()).isEmpty();    // ended 2 days ago: steps purged
      assertThat(left.get(1).getStepsList()).hasSize(1);   // ended an hour ago: within 12 h
      assertThat(left.get(2).getStepsList()).hasSize(1);   // still running

      List<Integer> archived = new ArrayList<>();
      try (InputStream in = Files.newInputStream(dir.resolve("archive/c_job_archive"))) {
        AcctJob j;
        while ((j = AcctJob.parseDelimitedFrom(in)) != null) {
          archived.add(j.getJobId());
        }
      }
      assertThat(archived).containsExactly(1, 2);
      assertThat(purger.run()).isZero(); // nothing twice
    }
  }

  @Test
  void purgeAgesReadAsSlurmdbdConfSaysAndBadOnesAreRefused() throws Exception {
    DbdConfig cfg = DbdConfig.parse("PurgeJobAfter=12\nPurgeStepAfter=36hours\nPurgeEventAfter=2days\n"
        + "PurgeResvAfter=3x\n", Path.of("slurmdbd.conf"));
    assertThat(cfg.purgeAfter("PurgeJobAfter")).contains(new PurgeAge(12, ChronoUnit.MONTHS));
    assertThat(cfg.purgeAfter("PurgeStepAfter")).contains(new PurgeAge(36, ChronoUnit.HOURS));
    assertThat(cfg.purgeAfter("PurgeEventAfter")).contains(new PurgeAge(2, ChronoUnit.DAYS));
    assertThat(cfg.purgeAfter("PurgeTxnAfter")).isEmpty();
    assertThatThrownBy(() -> cfg.purgeAfter("PurgeResvAfter")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("PurgeResvAfter");
  }
}

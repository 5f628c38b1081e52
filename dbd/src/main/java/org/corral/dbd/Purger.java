package org.corral.dbd;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.corral.dbd.config.DbdConfig.PurgeAge;
import org.corral.dbd.storage.JobStore;
import org.corral.protocol.msg.AcctJob;

/**
 * PurgeJobAfter and PurgeStepAfter: once at start and then hourly, job records that ended longer
 * ago than the first are removed, and the steps of those older than the second. With
 * ArchiveJobs=yes each purged record is first appended to ArchiveDir/CLUSTER_job_archive (as
 * length-delimited AcctJob messages, corral.proto) and the file synced, so nothing is deleted
 * that was not archived.
 */
final class Purger implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmdbd");
  private static final int BATCH = 1000;

  private final JobStore jobs;
  private final Optional<PurgeAge> jobAge;
  private final Optional<PurgeAge> stepAge;
  private final Optional<Path> archiveDir;
  private final Clock clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("purge").daemon().unstarted(r));

  Purger(JobStore jobs, Optional<PurgeAge> jobAge, Optional<PurgeAge> stepAge, Optional<Path> archiveDir,
      Clock clock) {
    this.jobs = jobs;
    this.jobAge = jobAge;
    this.stepAge = stepAge;
    this.archiveDir = archiveDir;
    this.clock = clock;
  }

  Purger start() {
    if (jobAge.isPresent() || stepAge.isPresent()) {
      timer.scheduleWithFixedDelay(this::runQuietly, 0, 1, TimeUnit.HOURS);
    }
    return this;
  }

  private void runQuietly() {
    try {
      run();
    } catch (SQLException | IOException | RuntimeException e) {
      LOG.log(Level.ERROR, "purge failed (tried again within the hour): " + e);
    }
  }

  /** One pass; returns how many job records were purged. */
  int run() throws SQLException, IOException {
    int purged = 0;
    if (jobAge.isPresent()) {
      long cutoff = jobAge.get().cutoff(clock.instant(), ZoneId.systemDefault());
      List<AcctJob> batch;
      do {
        batch = jobs.endedBefore(cutoff, BATCH);
        if (archiveDir.isPresent()) {
          archive(batch);
        }
        purged += jobs.delete(batch);
      } while (batch.size() == BATCH);
      if (purged > 0) {
        LOG.log(Level.INFO, "purged " + purged + " job records that ended before " + cutoff);
      }
    }
    if (stepAge.isPresent()) {
      jobs.dropStepsBefore(stepAge.get().cutoff(clock.instant(), ZoneId.systemDefault()));
    }
    return purged;
  }

  private void archive(List<AcctJob> batch) throws IOException {
    Path dir = archiveDir.orElseThrow();
    Files.createDirectories(dir);
    for (AcctJob j : batch) {
      Path file = dir.resolve(j.getCluster() + "_job_archive");
      if (!Files.exists(file)) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.APPEND))) {
        j.writeDelimitedTo(out);
      }
    }
    for (String cluster : batch.stream().map(AcctJob::getCluster).distinct().toList()) {
      try (var ch = java.nio.channels.FileChannel.open(dir.resolve(cluster + "_job_archive"), StandardOpenOption.WRITE)) {
        ch.force(true); // durable before the records are deleted
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

package org.corral.dbd;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
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
 * PurgeJobAfter and PurgeStepAfter: once at start and then hourly (and on demand: sacctmgr
 * archive dump), job records that ended longer ago than the first are removed, and the steps of
 * those older than the second. A record to be archived is first appended to
 * DIR/CLUSTER_job_archive (purged jobs) or DIR/CLUSTER_step_archive (jobs whose steps are
 * dropped, written with their steps) as length-delimited AcctJob messages (corral.proto), and
 * the file synced, so nothing is deleted that was not archived. {@link ArchiveLoader} reads
 * them back.
 */
final class Purger implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmdbd");
  private static final int BATCH = 1000;

  /**
   * One pass's settings: how old job records and steps must be to go, whether each is archived
   * first, where, and the clusters concerned (empty: all).
   */
  record Plan(Optional<PurgeAge> jobAge, boolean archiveJobs, Optional<PurgeAge> stepAge, boolean archiveSteps,
      Optional<Path> dir, List<String> clusters) {
    boolean purges() {
      return jobAge.isPresent() || stepAge.isPresent();
    }
  }

  private final JobStore jobs;
  private final Plan configured;
  private final Clock clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("purge").daemon().unstarted(r));

  Purger(JobStore jobs, Plan configured, Clock clock) {
    this.jobs = jobs;
    this.configured = configured;
    this.clock = clock;
  }

  /** slurmdbd.conf's ArchiveJobs=yes archives to {@code archiveDir} (present only then). */
  Purger(JobStore jobs, Optional<PurgeAge> jobAge, Optional<PurgeAge> stepAge, Optional<Path> archiveDir,
      Clock clock) {
    this(jobs, new Plan(jobAge, archiveDir.isPresent(), stepAge, false, archiveDir, List.of()), clock);
  }

  /** The settings of slurmdbd.conf, for a dump that leaves some unsaid. */
  Plan configured() {
    return configured;
  }

  Purger start() {
    if (configured.purges()) {
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

  /** One pass with slurmdbd.conf's settings; returns how many job records were purged. */
  int run() throws SQLException, IOException {
    return run(configured);
  }

  /** One pass with these settings (one at a time); returns how many job records were purged. */
  synchronized int run(Plan plan) throws SQLException, IOException {
    int purged = 0;
    ZoneId zone = ZoneId.systemDefault();
    if (plan.jobAge().isPresent()) {
      long cutoff = plan.jobAge().get().cutoff(clock.instant(), zone);
      List<AcctJob> batch;
      do {
        batch = jobs.endedBefore(cutoff, plan.clusters(), BATCH);
        if (plan.archiveJobs()) {
          append(plan.dir().orElseThrow(), "_job_archive", batch);
        }
        purged += jobs.delete(batch);
      } while (batch.size() == BATCH);
      if (purged > 0) {
        LOG.log(Level.INFO, "purged " + purged + " job records that ended before " + cutoff);
      }
    }
    if (plan.stepAge().isPresent()) {
      long cutoff = plan.stepAge().get().cutoff(clock.instant(), zone);
      if (plan.archiveSteps()) {
        Path dir = plan.dir().orElseThrow();
        jobs.dropStepsBefore(cutoff, plan.clusters(), page -> append(dir, "_step_archive",
            page.stream().filter(j -> j.getStepsCount() > 0).toList()));
      } else {
        jobs.dropStepsBefore(cutoff, plan.clusters(), page -> { });
      }
    }
    return purged;
  }

  /** Appends records to DIR/CLUSTER{suffix} (mode 0600), synced before they may be deleted. */
  private static void append(Path dir, String suffix, List<AcctJob> batch) throws IOException {
    Files.createDirectories(dir);
    for (AcctJob j : batch) {
      Path file = dir.resolve(j.getCluster() + suffix);
      if (!Files.exists(file)) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.APPEND))) {
        j.writeDelimitedTo(out);
      }
    }
    for (String cluster : batch.stream().map(AcctJob::getCluster).distinct().toList()) {
      try (FileChannel ch = FileChannel.open(dir.resolve(cluster + suffix), StandardOpenOption.WRITE)) {
        ch.force(true); // durable before the records are deleted
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

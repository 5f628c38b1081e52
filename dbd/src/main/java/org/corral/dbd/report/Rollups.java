package org.corral.dbd.report;

import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.corral.common.Hostlist;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.SlurmConfig;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.NodeEventStore;
import org.corral.dbd.storage.ReservationStore;

/**
 * slurmdbd's rollup task: once a minute it rolls up every known cluster through the last hour
 * that ended (cheap when nothing changed). The cluster's CPU count, which Slurm's controller
 * registers with slurmdbd, is taken from the slurm.conf slurmdbd runs beside: the CPUs of its
 * NodeName lines, recorded from the moment slurmdbd starts with a count that differs from the
 * last one recorded (the controller sends no node or cluster TRES yet).
 */
public final class Rollups implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmdbd");

  private final UsageStore store;
  private final UsageCalendar calendar;
  private final Rollup rollup;
  private final Clock clock;
  private ScheduledExecutorService timer;

  public Rollups(Database db, JobStore jobs, Clock clock, ZoneId zone) {
    this.store = new UsageStore(db);
    this.calendar = new UsageCalendar(zone);
    this.rollup = new Rollup(store, jobs, new NodeEventStore(db), new ReservationStore(db), calendar);
    this.clock = clock;
  }

  UsageStore store() {
    return store;
  }

  UsageCalendar calendar() {
    return calendar;
  }

  /** Records {@code cluster}'s CPUs from {@code slurmConf} (if readable), as of now. */
  public void registerFrom(String cluster, Path slurmConf) {
    if (cluster.isEmpty() || slurmConf == null || !Files.isReadable(slurmConf)) {
      LOG.log(Level.WARNING, "no slurm.conf to take cluster " + cluster + "'s CPU count from: sreport shows no"
          + " idle or reported time for it");
      return;
    }
    try {
      List<NodeConfig> nodes = SlurmConfig.load(slurmConf).nodes();
      long cpus = nodes.stream().mapToLong(NodeConfig::cpus).sum();
      long mem = nodes.stream().mapToLong(NodeConfig::realMemoryMb).sum();
      // the TRES Slurm registers by default (AccountingStorageTRES), as its cluster event shows them
      String tres = "billing=" + cpus + ",cpu=" + cpus + ",energy=0,fs/disk=0,mem=" + mem + "M,node=" + nodes.size()
          + ",pages=0,vmem=0";
      store.registerCpus(cluster, cpus, tres, Hostlist.compress(nodes.stream().map(NodeConfig::name).toList()),
          clock.instant().getEpochSecond());
    } catch (Exception e) {
      LOG.log(Level.WARNING, "cannot record cluster " + cluster + "'s CPU count: " + e.getMessage());
    }
  }

  public void registerCpus(String cluster, long cpus) throws SQLException {
    store.registerCpus(cluster, cpus, "", "", clock.instant().getEpochSecond());
  }

  /** Rolls up every cluster now. */
  public void runOnce() throws SQLException {
    long now = clock.instant().getEpochSecond();
    for (String cluster : store.clusters()) {
      rollup.run(cluster, now);
    }
  }

  /** Starts the task: at once, then every minute. */
  public Rollups start() {
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "rollup");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(() -> {
      try {
        runOnce();
      } catch (SQLException | RuntimeException e) {
        LOG.log(Level.ERROR, "usage rollup failed (retried in a minute): " + e.getMessage());
      }
    }, 0, 60, TimeUnit.SECONDS);
    return this;
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}

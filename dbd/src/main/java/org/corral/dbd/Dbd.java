package org.corral.dbd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.corral.common.config.ConfigException;
import org.corral.dbd.assoc.AssocService;
import org.corral.dbd.assoc.AssocStore;
import org.corral.dbd.config.DbdConfig;
import org.corral.dbd.report.ReportService;
import org.corral.dbd.report.Rollups;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.NodeEventStore;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.DbdAddress;
import org.corral.protocol.FrameLimits;
import org.corral.protocol.RpcServer;
import org.corral.protocol.SocketDirectory;
import org.corral.protocol.PeerLimits;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.audit.AuditLog;
import org.corral.protocol.auth.MungeAuth;
import org.corral.protocol.msg.Request;

/**
 * The running slurmdbd: the database (migrated when opened; retried until it answers, so a
 * database that starts later is waited for) and the RPC server, TCP for the controller and a
 * Unix socket beside the pid file for local commands.
 */
public final class Dbd implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmdbd");

  private final Database db;
  private final RpcServer server;
  private final Rollups rollups;

  private final Purger purger;

  private final AuditLog audit;

  private Dbd(Database db, RpcServer server, Rollups rollups, Purger purger, AuditLog audit) {
    this.audit = audit;
    this.purger = purger;
    this.db = db;
    this.server = server;
    this.rollups = rollups;
  }

  /**
   * @param tcpPort the port to listen on (0: any free one; tests)
   * @param cluster the cluster sacct reports on when not told (ClusterName of slurm.conf)
   */
  public static Dbd start(DbdConfig cfg, int tcpPort, String cluster, Clock clock)
      throws IOException, ConfigException {
    int slurmUid = UserDirectory.system().uid(cfg.slurmUser()).orElse(0);
    ClusterKey key = ClusterKey.load(cfg.keyFile(), slurmUid);
    Database db = openWithRetry(cfg);
    JobStore jobs = new JobStore(db);
    AssocStore assocs = new AssocStore(db);
    try {
      assocs.bootstrap(cluster);
    } catch (SQLException e) {
      db.close();
      throw new IOException(e.getMessage(), e);
    }
    Rollups rollups = new Rollups(db, jobs, clock,
        ZoneId.systemDefault());
    rollups.registerFrom(cluster, cfg.path().toAbsolutePath().resolveSibling("slurm.conf"));
    Path socket = DbdAddress.unixSocket(cfg.pidFile(), cfg.port());
    SocketDirectory.ensure(socket.getParent());
    Purger purger = new Purger(jobs, new Purger.Plan(cfg.purgeAfter("PurgeJobAfter"), cfg.archives("ArchiveJobs"),
        cfg.purgeAfter("PurgeStepAfter"), cfg.archives("ArchiveSteps"), Optional.of(cfg.archiveDirSetting()),
        List.of()), clock);
    AssocService assocService = new AssocService(assocs, slurmUid, UserDirectory.system());
    // sacctmgr's bulk changes and archive loads (administrators', checked after reading) may be large
    FrameLimits userFrames = FrameLimits.DEFAULT
        .withUserType(Request.ACCT_UPDATE_FIELD_NUMBER, 4 << 20)
        .withUserType(Request.ARCHIVE_LOAD_FIELD_NUMBER, 64 << 20);
    DbdService service = new DbdService(jobs, cluster, slurmUid, clock,
        assocService, new ArchiveService(purger, jobs, assocService, cfg.archiveDirSetting()),
        new ReportService(rollups, jobs, cluster, clock), new NodeEventStore(db),
        DbdSettings.of(cfg, clock.instant(), cfg.slurmUser(), slurmUid), cfg.privateData());
    AuditLog audit = AuditLog.open(auditFile(cfg), "slurmdbd", cfg.get("DbdHost").orElse("localhost"), clock);
    service.audit(audit);
    RpcServer server = RpcServer.start(new RpcServerConfig(cfg.dbdAddr(), tcpPort, socket,
            64 << 20, Duration.ofMinutes(5), 1024, userFrames,
            PeerLimits.DEFAULT.withParameters(cfg.get("Parameters").orElse(""))),
        new Credentials(key, "slurmdbd", clock),
        MungeAuth.forAuthType(cfg.get("AuthType").orElse("auth/munge"),
            cfg.get("AuthInfo").orElse(null), clock),
        service);
    return new Dbd(db, server, rollups.start(), purger.start(), audit);
  }

  private static Database openWithRetry(DbdConfig cfg) throws ConfigException, IOException {
    long delayMs = 1000;
    while (true) {
      try {
        return Database.open(cfg.storage(), cfg.jdbcUrl(), cfg.storageUser(), cfg.storagePass());
      } catch (SQLException e) {
        LOG.log(Level.ERROR, "accounting database not available, retrying in " + delayMs / 1000 + " s: "
            + e.getMessage());
        try {
          Thread.sleep(delayMs);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for the database");
        }
        delayMs = Math.min(delayMs * 2, 30_000);
      }
    }
  }

  /** slurmdbd_audit.log beside LogFile, else beside the pid file. */
  static Path auditFile(DbdConfig cfg) {
    Path beside = cfg.logFile().orElse(cfg.pidFile()).toAbsolutePath();
    return beside.resolveSibling("slurmdbd_audit.log");
  }

  public int tcpPort() {
    return server.tcpPort();
  }

  @Override
  public void close() {
    rollups.close();
    purger.close();
    server.close();
    audit.close();
    db.close();
  }
}

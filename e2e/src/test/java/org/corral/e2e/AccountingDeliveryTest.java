package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.runtime.Controller;
import org.corral.dbd.Dbd;
import org.corral.dbd.config.DbdConfig;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.DbdAddress;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No accounting record is ever dropped: 2,000 jobs go through a controller while slurmdbd is
 * killed, its database goes away (a cut connection to a real MariaDB when one runs here, else the
 * embedded SQLite with only slurmdbd killed), slurmdbd is restarted while the database is still
 * away, and the controller itself restarts with records unsent. Once everything is back, every
 * job is in the database exactly once, in its final state.
 */
class AccountingDeliveryTest {
  private static final int JOBS = 2000;
  private static final int QUARTER = JOBS / 4;

  @TempDir Path dir;

  @Test
  void everyJobsRecordArrivesExactlyOnceThroughOutages() throws Exception {
    int ctldPort = FreePorts.one();
    int dbdPort = FreePorts.one();
    String mariaDb = "corral_e2e_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    boolean server = createMariaDb(mariaDb);
    int proxyPort = FreePorts.one();
    try (TcpOutage database = server ? new TcpOutage(proxyPort, "127.0.0.1", 3306) : null) {
      SlurmConfig cfg = writeConfig(ctldPort, dbdPort, server
          ? "StorageType=accounting_storage/mysql\nStorageHost=127.0.0.1\nStoragePort=" + proxyPort
              + "\nStorageUser=root\nStorageLoc=" + mariaDb + "\n"
          : "StorageType=accounting_storage/sqlite\nStorageLoc=" + dir.resolve("acct.sqlite") + "\n");
      DbdConfig dbdCfg = DbdConfig.load(dir.resolve("slurmdbd.conf"));
      UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + ctldPort + ".sock"));
      List<Integer> ids = new ArrayList<>();

      Dbd dbd = Dbd.start(dbdCfg, dbdPort, "acct", Clock.systemUTC());
      Controller ctld = startController(cfg);
      submit(user, ids, QUARTER);                   // slurmdbd up
      dbd.close();                                   // slurmdbd killed
      submit(user, ids, QUARTER);
      cancelEverySecond(user, ids);
      if (database != null) {
        database.cut();                              // and the database gone
      }
      CompletableFuture<Dbd> restarted = CompletableFuture.supplyAsync(() -> {
        try {
          return Dbd.start(dbdCfg, dbdPort, "acct", Clock.systemUTC()); // waits for its database
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      submit(user, ids, QUARTER);
      ctld.close();                                  // the controller restarts with records unsent
      assertThat(ctld.state().outbox().events()).isNotEmpty();
      ctld = startController(cfg);
      submit(user, ids, QUARTER);
      if (database != null) {
        Thread.sleep(2000);
        database.restore();                          // the database is back
      }
      dbd = restarted.get(120, java.util.concurrent.TimeUnit.SECONDS);
      cancelEverySecond(user, ids);
      try {
        awaitEmptyOutbox(ctld);
        Map<Integer, AcctJob> stored = stored(dbdCfg);
        assertThat(stored).hasSize(JOBS);
        assertThat(stored.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        for (int i = 0; i < ids.size(); i++) {
          assertThat(stored.get(ids.get(i)).getState()).as("job %d", ids.get(i))
              .isEqualTo(i % 2 == 0 ? JobState.CANCELLED : JobState.PENDING);
        }
      } finally {
        ctld.close();
        dbd.close();
      }
    } finally {
      if (server) {
        dropMariaDb(mariaDb);
      }
    }
  }

  private SlurmConfig writeConfig(int ctldPort, int dbdPort, String storage) throws Exception {
    Files.writeString(dir.resolve("slurm.conf"), """
        ClusterName=acct
        SlurmctldHost=localhost(127.0.0.1)
        SlurmctldPort=%d
        SlurmUser=root
        StateSaveLocation=%s/state
        SlurmctldPidFile=%s/slurmctld.pid
        AccountingStorageType=accounting_storage/slurmdbd
        AccountingStorageHost=127.0.0.1
        AccountingStoragePort=%d
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(ctldPort, dir, dir, dbdPort, FreePorts.one()));
    Path dbdConf = dir.resolve("slurmdbd.conf");
    Files.writeString(dbdConf, "DbdAddr=127.0.0.1\nDbdPort=" + dbdPort + "\nSlurmUser=root\nPidFile="
        + dir.resolve("slurmdbd.pid") + "\n" + storage);
    Files.setPosixFilePermissions(dbdConf, PosixFilePermissions.fromString("rw-------"));
    ClusterKey.generate(dir.resolve("slurm.key"));
    return SlurmConfig.load(dir.resolve("slurm.conf"));
  }

  private static Controller startController(SlurmConfig cfg) throws Exception {
    return Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false, Duration.ofSeconds(2));
  }

  private static void submit(UnixSocketChannel user, List<Integer> ids, int n) throws Exception {
    for (int i = 0; i < n; i++) {
      Response r = user.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(
          JobSpec.newBuilder().setName("acct-" + i).setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp")
              .setTimeLimitMin(5))).build());
      assertThat(r.getErrorCode()).as(r.getErrorMessage()).isZero();
      ids.add(r.getSubmitJob().getJobId());
    }
  }

  /** Cancels jobs at even positions (the same ones every time: cancelling again changes nothing). */
  private static void cancelEverySecond(UnixSocketChannel user, List<Integer> ids) throws Exception {
    CancelJobsRequest.Builder b = CancelJobsRequest.newBuilder();
    for (int i = 0; i < ids.size(); i += 2) {
      b.addJobIds(ids.get(i));
    }
    assertThat(user.call(Request.newBuilder().setCancelJobs(b).build()).getErrorCode()).isZero();
  }

  private static void awaitEmptyOutbox(Controller ctld) throws InterruptedException {
    for (int i = 0; i < 600 && !ctld.state().outbox().events().isEmpty(); i++) {
      Thread.sleep(200);
    }
    assertThat(ctld.state().outbox().events()).as("records still unsent").isEmpty();
  }

  /** What sacct would find: every job of the cluster, asked through slurmdbd's local socket. */
  private static Map<Integer, AcctJob> stored(DbdConfig cfg) throws Exception {
    UnixSocketChannel dbd = new UnixSocketChannel(DbdAddress.unixSocket(cfg.pidFile(), cfg.port()));
    Response r = dbd.call(Request.newBuilder().setJobQuery(JobQueryRequest.newBuilder().setAllUsers(true)).build());
    assertThat(r.getErrorCode()).as(r.getErrorMessage()).isZero();
    Map<Integer, AcctJob> out = new TreeMap<>();
    for (AcctJob j : r.getJobQuery().getJobsList()) {
      assertThat(out.put(j.getJobId(), j)).as("job %d stored twice", j.getJobId()).isNull();
    }
    return out;
  }

  private static boolean createMariaDb(String name) {
    try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/?connectTimeout=2000", "root", "");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
      return true;
    } catch (SQLException e) {
      System.out.println("[accounting delivery] no MariaDB at 127.0.0.1:3306 (" + e.getMessage()
          + "): SQLite only, and the database outage is not exercised");
      return false;
    }
  }

  private static void dropMariaDb(String name) {
    try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/", "root", "");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name);
    } catch (SQLException e) {
      System.out.println("[accounting delivery] could not drop " + name + ": " + e.getMessage());
    }
  }
}

package org.corral.restd;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.corral.common.Hostlist;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.runtime.Controller;
import org.corral.dbd.Dbd;
import org.corral.dbd.config.DbdConfig;
import org.corral.protocol.ClusterKey;
import org.corral.testkit.FreePorts;
import org.corral.testkit.TempDirs;

/**
 * The cluster of fixtures/slurm.conf, completed as `corral up --config` completes it (ports,
 * paths, slurmdbd), in a temporary directory: controller, slurmdbd (SQLite) and slurmrestd in
 * this JVM, the nodes' real slurmd in one child JVM ({@link FixtureNodes}), so jobs really run.
 */
final class FixtureCluster implements AutoCloseable {
  static final String CONF = "fixtures/slurm.conf";

  final Path dir;
  final SlurmConfig cfg;
  final String base;
  private final Dbd dbd;
  private final Controller ctld;
  private final Process nodes;
  private final Slurmrestd restd;

  FixtureCluster() throws Exception {
    dir = Files.createTempDirectory("restd-fixtures");
    int ctldPort = FreePorts.one();
    int dbdPort = FreePorts.one();
    List<String> lines = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try (var in = FixtureCluster.class.getResourceAsStream(CONF)) {
      for (String l : new String(in.readAllBytes()).split("\n")) {
        if (l.startsWith("NodeName=")) {
          List<String> these = Hostlist.expand(l.substring(9, l.indexOf(' ')));
          int first = FreePorts.block(these.size());
          l += " Port=" + first + "-" + (first + these.size() - 1) + " NodeAddr=127.0.0.1";
          names.addAll(these);
        }
        lines.add(l);
      }
    }
    lines.addAll(List.of("SlurmctldPort=" + ctldPort, "StateSaveLocation=" + dir.resolve("state"),
        "SlurmdSpoolDir=" + dir.resolve("spool/%n"), "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
        "SlurmdPidFile=" + dir.resolve("slurmd-%n.pid"), "SlurmdLogFile=" + dir.resolve("slurmd-%n.log"),
        "AccountingStorageType=accounting_storage/slurmdbd", "AccountingStorageHost=127.0.0.1",
        "AccountingStoragePort=" + dbdPort));
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, String.join("\n", lines) + "\n");
    Path dbdConf = dbdConf(dir, dbdPort);
    ClusterKey.generate(dir.resolve("slurm.key"));
    cfg = SlurmConfig.load(conf);
    dbd = Dbd.start(DbdConfig.load(dbdConf), dbdPort, cfg.clusterName(), Clock.systemUTC());
    ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false, Duration.ofSeconds(2));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        FixtureNodes.class.getName(), conf.toString()));
    cmd.addAll(names);
    nodes = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("nodes.log").toFile())
        .start();
    restd = Slurmrestd.start(cfg, RestdOptions.parse(List.of("127.0.0.1:0"), Map.of()), Clock.systemUTC());
    base = "http://127.0.0.1:" + restd.tcpAddress().getPort();
  }

  /** DIR/slurmdbd.conf for a slurmdbd on {@code port} over SQLite in DIR (mode 0600, as slurmdbd wants). */
  static Path dbdConf(Path dir, int port) throws java.io.IOException {
    Path conf = dir.resolve("slurmdbd.conf");
    Files.writeString(conf, "DbdAddr=127.0.0.1\nDbdPort=" + port + "\nSlurmUser=root\nPidFile="
        + dir.resolve("slurmdbd.pid") + "\nStorageType=accounting_storage/sqlite\nStorageLoc="
        + dir.resolve("acct.sqlite") + "\n");
    Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rw-------"));
    return conf;
  }

  @Override
  public void close() {
    restd.close();
    nodes.destroy(); // SIGTERM: each slurmd stops its jobs and itself
    try {
      if (!nodes.waitFor(30, TimeUnit.SECONDS)) {
        nodes.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ctld.close();
    dbd.close();
    TempDirs.deleteTree(dir);
  }
}

package org.corral.dbd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfig;
import org.corral.common.logging.DaemonLogging;
import org.corral.common.logging.PidFile;
import org.corral.dbd.config.DbdConfig;

/**
 * {@code slurmdbd [-D] [-v] [-f slurmdbd.conf]}: the accounting daemon, the only process that
 * talks to the database. Runs in the foreground. slurmdbd.conf comes from -f, else beside
 * $SLURM_CONF, else /etc/slurm; its own cluster is the ClusterName of the slurm.conf beside it
 * (else $SLURM_CONF's).
 */
public final class Slurmdbd {
  private Slurmdbd() {}

  public static void main(String[] args) {
    org.corral.common.FailFast.install(); // no half-alive daemon: a dead thread ends the process
    boolean verbose = false;
    Path conf = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        // -s: Slurm's unit files pass it (change to the log's directory); Corral's daemons never
        // depend on their working directory, and its units are Slurm's (dist/systemd).
        case "-D", "-s" -> { }
        case "-v", "-vv", "-vvv" -> verbose = true;
        case "-f" -> {
          if (i + 1 == args.length) {
            usage(1);
          }
          conf = Path.of(args[++i]);
        }
        case "-V" -> {
          System.out.println(org.corral.common.Version.TEXT);
          return;
        }
        case "-h", "--help" -> usage(0);
        default -> {
          System.err.println("slurmdbd: unrecognized option '" + args[i] + "'");
          usage(1);
        }
      }
    }
    Path envConf = SlurmConfig.defaultPath(System.getenv());
    if (conf == null) {
      conf = envConf.toAbsolutePath().resolveSibling("slurmdbd.conf");
    }
    // The cluster sacct reports by default: slurm.conf's beside slurmdbd.conf, else $SLURM_CONF's.
    Path beside = conf.toAbsolutePath().resolveSibling("slurm.conf");
    Path slurmConf = java.nio.file.Files.exists(beside) ? beside : envConf;
    try {
      DbdConfig cfg = DbdConfig.load(conf);
      DaemonLogging.Options logging;
      try {
        logging = DaemonLogging.Options.of(cfg.get("LogTimeFormat").orElse(null),
            cfg.get("DebugLevelSyslog").orElse(null), "slurmdbd");
      } catch (IllegalArgumentException e) {
        System.err.println("slurmdbd: error: " + conf + ": " + e.getMessage());
        System.exit(1);
        return;
      }
      DaemonLogging.setup(cfg.logFile().orElse(null), verbose, logging);
      System.Logger log = System.getLogger("slurmdbd");
      cfg.warnings().forEach(w -> log.log(Level.WARNING, w));
      String cluster = java.nio.file.Files.exists(slurmConf) ? SlurmConfig.load(slurmConf).clusterName() : "";
      Dbd dbd = Dbd.start(cfg, cfg.port(), cluster, Clock.systemUTC());
      Path pid = cfg.pidFile();
      PidFile.write(pid);
      CountDownLatch stop = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        dbd.close();
        PidFile.remove(pid);
        stop.countDown();
      }));
      log.log(Level.INFO, "slurmdbd version " + org.corral.common.Version.NUMBER + " started ("
          + cfg.storage().name().toLowerCase(java.util.Locale.ROOT) + ")");
      stop.await();
    } catch (ConfigException e) {
      System.err.println("slurmdbd: fatal: " + e.getMessage());
      System.exit(1);
    } catch (IOException e) {
      System.err.println("slurmdbd: fatal: " + e.getMessage());
      System.exit(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void usage(int code) {
    (code == 0 ? System.out : System.err).println("Usage: slurmdbd [-D] [-v] [-f slurmdbd.conf]");
    System.exit(code);
  }
}

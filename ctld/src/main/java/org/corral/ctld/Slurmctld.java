package org.corral.ctld;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.common.logging.DaemonLogging;
import org.corral.common.logging.PidFile;
import org.corral.ctld.journal.JournalCorruptException;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.ha.ReplicatedController;
import org.corral.ctld.runtime.Controller;

/**
 * {@code slurmctld [-D] [-i] [-c] [-R] [-v] [-f slurm.conf]}: the controller daemon. Runs in the
 * foreground (launchers such as {@code corral up} put it in the background).
 */
public final class Slurmctld {
  private Slurmctld() {}

  public static void main(String[] args) {
    org.corral.common.FailFast.install(); // no half-alive daemon: a dead thread ends the process
    boolean ignoreDamage = false;
    boolean clear = false;
    boolean recoverPartitions = false;
    boolean verbose = false;
    Path conf = null;
    String controllerName = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        // -s: Slurm's unit files pass it (change to the log's directory); Corral's daemons never
        // depend on their working directory, and its units are Slurm's (dist/systemd).
        case "-D", "-s" -> { }
        case "-i" -> ignoreDamage = true;
        case "-c" -> clear = true;
        case "-R" -> recoverPartitions = true; // partitions as saved too, not slurm.conf's
        case "-v", "-vv", "-vvv" -> verbose = true;
        case "-f" -> conf = Path.of(args[++i]);
        case "--controller" -> controllerName = args[++i];
        case "-V" -> {
          System.out.println(org.corral.common.Version.TEXT);
          return;
        }
        case "-h", "--help" -> {
          System.out.println("Usage: slurmctld [-D] [-i] [-c] [-R] [-v] [-f slurm.conf] [--controller NAME]");
          return;
        }
        default -> {
          System.err.println("slurmctld: unrecognized option '" + args[i] + "'");
          System.exit(1);
        }
      }
    }
    try {
      SlurmConfig cfg = SlurmConfig.load(conf != null ? conf : SlurmConfig.defaultPath(System.getenv()));
      // Controllers sharing a host keep files of their own: backup N's log and pid file add ".N".
      String suffix = cfg.replicatedControllers() ? ReplicatedController.fileSuffix(cfg, controllerName) : "";
      DaemonLogging.setup(cfg.slurmctldLogFile().map(f -> Path.of(f + suffix)).orElse(null), verbose,
          DaemonLogging.Options.of(cfg, SlurmConfKeys.SLURMCTLD_SYSLOG_DEBUG, "slurmctld"));
      System.Logger log = System.getLogger("slurmctld");
      for (String w : cfg.warnings()) {
        log.log(Level.WARNING, w);
      }
      if (cfg.replicatedControllers()) {
        runReplicated(cfg, controllerName, log);
        return;
      }
      Path pid = Path.of(cfg.slurmctldPidFile());
      Controller controller = Controller.start(cfg, Clock.systemUTC(),
          ignoreDamage ? RecoveryMode.IGNORE_DAMAGE : RecoveryMode.STRICT, clear, recoverPartitions,
          Duration.ofSeconds(10));
      PidFile.write(pid);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        controller.close();
        PidFile.remove(pid);
      }));
      log.log(Level.INFO, "slurmctld version " + org.corral.common.Version.NUMBER + " started on cluster " + cfg.clusterName());
      controller.awaitShutdown();
      System.exit(0);
    } catch (ConfigException e) {
      System.err.println("slurmctld: error: " + e.getMessage());
      System.exit(1);
    } catch (JournalCorruptException e) {
      System.err.println("slurmctld: fatal: " + e.getMessage());
      System.exit(1);
    } catch (IOException e) {
      System.getLogger("slurmctld").log(Level.ERROR, "fatal", e);
      System.err.println("slurmctld: fatal: " + e.getMessage());
      System.exit(1);
    }
  }

  /**
   * One of several controllers: joins their Raft group, and serves while it leads. Controllers
   * sharing a host keep pid files of their own: backup N's is SlurmctldPidFile with ".N" added.
   */
  private static void runReplicated(SlurmConfig cfg, String name, System.Logger log) throws IOException {
    ReplicatedController controller = ReplicatedController.start(cfg, Clock.systemUTC(), name,
        ReplicatedController.shortHostName(), Duration.ofSeconds(10));
    int index = controller.index();
    Path pid = Path.of(cfg.slurmctldPidFile() + ReplicatedController.fileSuffix(cfg, name));
    PidFile.write(pid);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      controller.close();
      PidFile.remove(pid);
    }));
    log.log(Level.INFO, "slurmctld version " + org.corral.common.Version.NUMBER + " started on cluster "
        + cfg.clusterName() + " as controller " + controller.id() + " (SlurmctldHost[" + index + "])");
    controller.awaitShutdown();
    controller.close();
    System.exit(0);
  }
}

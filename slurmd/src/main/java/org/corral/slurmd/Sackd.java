package org.corral.slurmd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.corral.common.Version;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.common.logging.DaemonLogging;
import org.corral.protocol.SackServer;
import org.corral.protocol.SackSocket;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.auth.SackKeys;
import org.corral.slurmd.launch.JobSupervisor;

/**
 * sackd, Slurm's auth and cred kiosk daemon, for login hosts that run no other daemon
 * (AuthType=auth/slurm): it holds the cluster key, which users cannot read, and on this host's
 * sack socket vouches for the local user that asks (SO_PEERCRED) with a short-lived credential
 * bound to one request, and checks the daemons' replies for them.
 */
public final class Sackd {
  private static final String USAGE = """
      Usage: sackd [OPTIONS]
        -D                     run in the foreground, logging to stderr
        -f config              read configuration from this file
        --conf-server host[:port]
                               fetch the configuration from slurmctld (configless)
        --disable-reconfig     with --conf-server: fetch it once
        --key-file file        the auth/slurm key (default: slurm.key beside slurm.conf)
        --jwks-file file       the auth/slurm JWKS key set (default: slurm.jwks beside slurm.conf)
        --port number          port for configless updates
        --systemd              started by systemd
        -v                     verbose mode (repeat for more)
        -h                     print this help
        -V                     print the version
      """;

  private Sackd() {}

  public static void main(String[] args) {
    org.corral.common.FailFast.install();
    Path conf = null;
    boolean verbose = false;
    Map<String, String> env = new HashMap<>(System.getenv());
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String value = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
      String opt = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      switch (opt) {
        case "-D", "--systemd", "--disable-reconfig" -> { }
        case "-f" -> conf = Path.of(need(args, ++i, a));
        case "-v", "-vv", "-vvv", "-vvvv" -> verbose = true;
        case "--key-file" -> env.put(SackKeys.KEY_ENV, value != null ? value : need(args, ++i, a));
        case "--jwks-file" -> fail("--jwks-file: JWKS key sets are not supported yet; use"
            + " --key-file (docs/compatibility.md)");
        case "--port" -> { // where configless updates arrive: none without configless
          if (value == null) {
            need(args, ++i, a);
          }
        }
        case "--conf-server" -> fail("--conf-server: configless mode is not available to sackd"
            + " yet; give the configuration with -f or SLURM_CONF");
        case "-h", "--help" -> {
          System.out.print(USAGE);
          return;
        }
        case "-V", "--version" -> {
          System.out.println(Version.TEXT);
          return;
        }
        default -> fail("unrecognized option '" + a + "'\n" + USAGE.stripTrailing());
      }
    }
    try {
      SlurmConfig cfg = SlurmConfig.load(conf != null ? conf : SlurmConfig.defaultPath(env));
      if (!"auth/slurm".equals(cfg.authType())) {
        fail(cfg.path() + ": AuthType=" + cfg.authType() + ": sackd serves auth/slurm only"
            + " (with auth/munge, run munged on this host instead)");
      }
      DaemonLogging.setup(null, verbose,
          DaemonLogging.Options.of(cfg, SlurmConfKeys.SLURMD_SYSLOG_DEBUG, "sackd"));
      System.Logger log = System.getLogger("sackd");
      Path socket = SackSocket.of(cfg);
      if (SackServer.served(socket)) {
        fail("another sackd (or slurmd) of this cluster already serves " + socket);
      }
      int slurmUid = UserDirectory.system().uid(cfg.slurmUser()).orElse(0);
      SackServer server = SackServer.forCluster(cfg, env, slurmUid,
          JobSupervisor.shortHostName(), Clock.systemUTC());
      Object done = new Object();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        server.close();
        synchronized (done) {
          done.notifyAll();
        }
      }));
      log.log(Level.INFO, "sackd version " + Version.NUMBER + " started: serving " + socket
          + " for cluster " + cfg.clusterName());
      synchronized (done) {
        done.wait();
      }
    } catch (ConfigException e) {
      fail(e.getMessage());
    } catch (IOException e) {
      System.err.println("sackd: fatal: " + e.getMessage());
      System.exit(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String need(String[] args, int i, String option) {
    if (i >= args.length) {
      fail("option '" + option + "' requires an argument");
    }
    return args[i];
  }

  private static void fail(String message) {
    System.err.println("sackd: error: " + message);
    System.exit(1);
  }
}

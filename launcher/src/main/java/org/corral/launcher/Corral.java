package org.corral.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.config.ConfigException;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.SlurmConfig;
import org.corral.dbd.config.DbdConfig;
import org.corral.protocol.ClusterKey;

/**
 * {@code corral up|down|status [options]}: a whole Corral cluster on this host, for trying it
 * out, development and tests. Everything lives in one directory (default .corral): the
 * slurm.conf, the key, state, spools, logs and pid files.
 */
public final class Corral {
  private static final String RESTD = "slurmrestd";
  private final Path home;
  private final PrintStream out;

  Corral(Path home, PrintStream out) {
    this.home = home;
    this.out = out;
  }

  public static void main(String[] args) {
    Path home = Path.of(System.getProperty("corral.home", ".")).toAbsolutePath().normalize();
    Corral corral = new Corral(home, System.out);
    String cmd = args.length == 0 ? "help" : args[0];
    List<String> rest = List.of(args).subList(Math.min(1, args.length), args.length);
    try {
      int rc = switch (cmd) {
        case "up" -> corral.up(ClusterOptions.parse(rest));
        case "down" -> corral.down(ClusterOptions.parse(rest));
        case "status" -> corral.status(ClusterOptions.parse(rest));
        case "simulate" -> org.corral.ctld.sim.SimulateCommand.run(rest, System.out, System.err);
        default -> {
          System.out.println("""
              usage: corral up [--nodes N] [--cpus C] [--memory MB] [--dir DIR] [--port-base P] [--config FILE]
                     corral down [--dir DIR]
                     corral status [--dir DIR]
                     corral up --hosts [--dir DIR] [--port-base P] [--netns-prefix PFX] [--subnet A.B.C]
                     corral down --hosts [--dir DIR]
                     corral on [--dir DIR] HOST [-u USER] COMMAND...   (a host of corral up --hosts)
                     corral simulate (--swf FILE | --generate JOBS) [--nodes N] [--cpus C] ...""");
          yield cmd.equals("help") || cmd.equals("--help") ? 0 : 2;
        }
      };
      System.exit(rc);
    } catch (IllegalArgumentException | ConfigException | IOException e) {
      System.err.println("corral: " + e.getMessage());
      System.exit(1);
    } catch (InterruptedException e) {
      System.exit(130);
    }
  }

  int up(ClusterOptions o) throws IOException, ConfigException, InterruptedException {
    Path dir = o.dir();
    Files.createDirectories(dir.resolve("log"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path conf = dir.resolve("slurm.conf");
    boolean ctldRunning = Files.exists(conf) && controller(daemons(SlurmConfig.load(conf))).running().isPresent();
    boolean written = false;
    if (o.config() != null && !ctldRunning) {
      Files.writeString(conf, LocalConfigWriter.fromFile(o));
      written = true;
    } else if (!Files.exists(conf) || (o.shaped() && !ctldRunning && !LocalConfigWriter.fromGivenFile(conf))) {
      Files.writeString(conf, LocalConfigWriter.defaultConfig(o));
      written = true;
    } else if (o.shaped() && !ctldRunning) {
      // A cluster made from the user's slurm.conf is restarted as it is, never replaced by the
      // default one (--config FILE again writes it anew).
      out.println("corral: " + conf + " came from --config; starting it as it is (--nodes, --cpus,"
          + " --memory and --port-base apply to the default cluster only)");
    }
    Path key = dir.resolve("slurm.key");
    if (!Files.exists(key)) {
      ClusterKey.generate(key);
    }
    Path dbdConf = dir.resolve("slurmdbd.conf");
    if (!Files.exists(dbdConf) || written) {
      LocalConfigWriter.writeDbdConfig(dbdConf, o);
    }
    SlurmConfig cfg = SlurmConfig.load(conf);
    Files.writeString(dir.resolve("env"), """
        # source this file to use the Corral cluster in %s
        export PATH="%s/bin:$PATH"
        export SLURM_CONF="%s"
        export SLURM_RESTD_URL="http://127.0.0.1:%d"
        """.formatted(dir, home, conf, restdPort(cfg)));
    List<Daemon> daemons = daemons(cfg);
    int started = 0;
    Daemon ctld = controller(daemons);
    String busy = busyPorts(cfg, daemons);
    if (!busy.isEmpty()) {
      out.println("corral: port" + (busy.contains(",") ? "s " : " ") + busy + " already in use (another"
          + " Slurm or Corral?); stop it, or give this cluster other ports with --port-base");
      return 1;
    }
    Daemon dbd = daemons.get(0) == ctld ? null : daemons.get(0);
    if (dbd != null && dbd.running().isEmpty()) {
      dbd.start(); // before the controller, which sends it job records from the start
      started++;
      if (!ClusterProbe.awaitDbd(dbdSocket(cfg), dbd, 60_000)) {
        // The cluster runs without it: the controller keeps every record until it answers.
        out.println("corral: slurmdbd is not answering yet (its database?); see " + dbd.log());
      }
    }
    if (ctld.running().isEmpty()) {
      ctld.start();
      started++;
      if (!ClusterProbe.awaitController(cfg, ctld, 60_000)) {
        return failed(ctld);
      }
    }
    for (Daemon d : daemons.subList(daemons.indexOf(ctld) + 1, daemons.size())) {
      if (d.running().isEmpty()) {
        Process p = d.start();
        if (d.label().equals(RESTD)) { // slurmrestd writes no pid file of its own, as in Slurm
          Files.writeString(d.pidFile(), p.pid() + "\n");
        }
        started++;
      }
    }
    if (started > 0 && !ClusterProbe.awaitNodesUp(cfg, 90_000)) {
      out.println("corral: not every node came up within 90 s; see " + dir.resolve("log"));
      status(cfg, daemons);
      return 1;
    }
    out.println(started == 0 ? "Corral cluster in " + dir + " is already running."
        : "Corral cluster \"" + cfg.clusterName() + "\" is up in " + dir + ":");
    status(cfg, daemons);
    out.println("""

        Use it:
          source %s/env
          sbatch --wrap 'hostname'
          squeue
        Stop it: %s/corral down%s""".formatted(dir, home,
        dir.equals(Path.of(".corral").toAbsolutePath().normalize()) ? "" : " --dir " + dir));
    return 0;
  }

  int down(ClusterOptions o) throws IOException, ConfigException, InterruptedException {
    Path conf = o.dir().resolve("slurm.conf");
    if (!Files.exists(conf)) {
      out.println("No Corral cluster in " + o.dir());
      return 0;
    }
    SlurmConfig cfg = SlurmConfig.load(conf);
    List<Daemon> daemons = daemons(cfg);
    int stopped = 0;
    for (Daemon d : daemons.reversed()) {
      if (d.stop(15_000)) {
        out.println("stopped " + d.label());
        stopped++;
      }
    }
    int launchers = JobLaunchers.stop(spoolDirs(cfg));
    if (launchers > 0) {
      out.println("stopped " + launchers + " job launcher" + (launchers == 1 ? "" : "s") + " and their jobs");
      stopped++;
    }
    if (stopped == 0) {
      out.println("Corral cluster in " + o.dir() + " was not running.");
    }
    return 0;
  }

  int status(ClusterOptions o) throws IOException, ConfigException {
    Path conf = o.dir().resolve("slurm.conf");
    if (!Files.exists(conf)) {
      out.println("No Corral cluster in " + o.dir());
      return 1;
    }
    SlurmConfig cfg = SlurmConfig.load(conf);
    List<Daemon> daemons = daemons(cfg);
    status(cfg, daemons);
    return daemons.stream().allMatch(d -> d.running().isPresent()) ? 0 : 3;
  }

  private void status(SlurmConfig cfg, List<Daemon> daemons) {
    for (Daemon d : daemons) {
      out.printf("  %-14s %-10s port %-6d log %s%n", d.label(),
          d.running().map(p -> "pid " + p.pid()).orElse("stopped"), d.port(), d.log());
    }
  }

  private int failed(Daemon d) throws IOException {
    out.println("corral: " + d.label() + " did not start; the end of " + d.output() + ":");
    List<String> lines = Files.exists(d.output()) ? Files.readAllLines(d.output()) : List.of();
    lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(l -> out.println("  " + l));
    return 1;
  }

  /** The ports of daemons that are not running but that something else holds. */
  private static String busyPorts(SlurmConfig cfg, List<Daemon> daemons) {
    List<String> busy = new ArrayList<>();
    for (Daemon d : daemons) {
      if (d.running().isEmpty() && !free(d.port())) {
        busy.add(String.valueOf(d.port()));
      }
    }
    return String.join(", ", busy);
  }

  private static boolean free(int port) {
    try (java.net.ServerSocket s = new java.net.ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new java.net.InetSocketAddress(port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** slurmdbd's local socket, as its slurmdbd.conf (beside slurm.conf) places it. */
  private static Path dbdSocket(SlurmConfig cfg) throws ConfigException {
    Path conf = cfg.path().resolveSibling("slurmdbd.conf");
    DbdConfig dbd = DbdConfig.parse(readable(conf), conf);
    return org.corral.protocol.DbdAddress.unixSocket(dbd.pidFile(), dbd.port());
  }

  private static Daemon controller(List<Daemon> daemons) {
    return daemons.stream().filter(d -> d.label().equals("slurmctld")).findFirst().orElseThrow();
  }

  /**
   * slurmdbd first when accounting is on and DIR has a slurmdbd.conf, then the controller,
   * slurmrestd, then one slurmd per node.
   */
  private List<Daemon> daemons(SlurmConfig cfg) throws ConfigException {
    String bin = home.resolve("bin").toString();
    String conf = cfg.path().toString();
    Path log = cfg.path().getParent().resolve("log");
    List<Daemon> out = new ArrayList<>();
    Path dbdConf = cfg.path().resolveSibling("slurmdbd.conf");
    if (cfg.accounting().enabled() && Files.exists(dbdConf)) {
      DbdConfig dbd = DbdConfig.parse(readable(dbdConf), dbdConf);
      Path dbdOut = log.resolve("slurmdbd.out");
      out.add(new Daemon("slurmdbd", List.of(bin + "/slurmdbd", "-D", "-f", dbdConf.toString()),
          dbd.pidFile(), dbdOut, "org.corral.dbd.Slurmdbd", dbd.port(),
          dbd.logFile().map(Path::toString).orElse(dbdOut.toString())));
    }
    Path ctldOut = log.resolve("slurmctld.out");
    if (!cfg.replicatedControllers()) {
      out.add(new Daemon("slurmctld", List.of(bin + "/slurmctld", "-D", "-f", conf),
          Path.of(cfg.slurmctldPidFile()), ctldOut, "org.corral.ctld.Slurmctld", cfg.slurmctldPort(),
          cfg.slurmctldLogFile().orElse(ctldOut.toString())));
    } else { // every controller SlurmctldHost names, each as its --controller (they share this host)
      for (int i = 0; i < cfg.controllers().size(); i++) {
        String name = cfg.controllers().get(i).host();
        String suffix = i == 0 ? "" : "." + i;
        Path o = log.resolve("slurmctld.out" + suffix);
        out.add(new Daemon(i == 0 ? "slurmctld" : "slurmctld " + name,
            List.of(bin + "/slurmctld", "-D", "-f", conf, "--controller", name),
            Path.of(cfg.slurmctldPidFile() + suffix), o, "--controller " + name + " ", cfg.slurmctldPort(),
            cfg.slurmctldLogFile().map(f -> f + suffix).orElse(o.toString())));
      }
    }
    Path dir = cfg.path().getParent();
    Path restdOut = log.resolve("slurmrestd.out");
    out.add(new Daemon(RESTD, List.of(bin + "/slurmrestd", "-f", conf, "-a", "rest_auth/jwt,rest_auth/local",
        "127.0.0.1:" + restdPort(cfg), "unix:" + dir.resolve("slurmrestd.socket")), dir.resolve("slurmrestd.pid"),
        restdOut, "org.corral.restd.Slurmrestd", restdPort(cfg), restdOut.toString()));
    String host = LocalConfigWriter.hostName();
    for (NodeConfig n : cfg.nodes()) {
      Path nodeOut = log.resolve("slurmd-" + n.name() + ".out");
      out.add(new Daemon("slurmd " + n.name(),
          List.of(bin + "/slurmd", "-D", "-N", n.name(), "-f", conf),
          Path.of(SlurmConfig.expandNodeTemplate(cfg.slurmdPidFile(), n.name(), host)),
          nodeOut, "-N " + n.name() + " ", n.port(),
          cfg.slurmdLogFile().map(t -> SlurmConfig.expandNodeTemplate(t, n.name(), host))
              .orElse(nodeOut.toString())));
    }
    return out;
  }

  /** Each node's SlurmdSpoolDir, as its slurmd expands it. */
  private static List<Path> spoolDirs(SlurmConfig cfg) {
    String host = LocalConfigWriter.hostName();
    return cfg.nodes().stream()
        .map(n -> Path.of(SlurmConfig.expandNodeTemplate(cfg.slurmdSpoolDir(), n.name(), host))).toList();
  }

  /** slurmrestd listens on the port three above the controller's (6820 for 6817). */
  private static int restdPort(SlurmConfig cfg) {
    return cfg.slurmctldPort() + 3;
  }

  private static String readable(Path file) throws ConfigException {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new ConfigException(file, 0, null, "cannot read: " + e.getMessage(), e);
    }
  }
}

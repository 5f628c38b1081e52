package org.corral.slurmd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.corral.common.Version;
import org.corral.common.config.CgroupConf;
import org.corral.common.config.ConfigException;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.common.logging.DaemonLogging;
import org.corral.common.logging.PidFile;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcServer;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.UserDirectory;
import org.corral.slurmd.hooks.AllocationHooks;
import org.corral.slurmd.hooks.HealthCheck;
import org.corral.slurmd.hooks.HookSettings;
import org.corral.slurmd.hooks.NodeJobHooks;
import org.corral.slurmd.cgroup.LimiterSelection;
import org.corral.slurmd.cgroup.NodeCgroupName;
import org.corral.slurmd.cgroup.ResourceLimiter;
import org.corral.slurmd.launch.JobConfinement;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.step.StepManager;
import org.corral.slurmd.usage.GatherFrequency;
import org.corral.slurmd.metrics.NodeMetrics;
import org.corral.slurmd.usage.ProcReader;

/**
 * {@code slurmd [-D] [-N NAME] [-f slurm.conf] [-v] [-C] [-G]}: the node daemon. {@code -N} lets several
 * run on one host, each a node of its own (how local clusters and tests fake many nodes).
 */
public final class Slurmd {
  private Slurmd() {}

  /** cgroup.conf beside slurm.conf (Slurm's place for it); its defaults when there is none. */
  /**
   * The node's metrics on its port when the cluster serves metrics (MetricsType set) and keeps no
   * data private (PrivateData unset, or MetricsParameters=ignore_private_data); else none.
   */
  private static NodeMetrics nodeMetrics(SlurmConfig cfg, String nodeName, JobSupervisor jobs, StepManager steps,
      ResourceLimiter limiter, org.corral.slurmd.gres.GresInventory gres) {
    if (cfg.text(SlurmConfKeys.METRICS_TYPE).isEmpty()) {
      return null;
    }
    if (org.corral.common.config.PrivateData.of(cfg).any()
        && !cfg.text(SlurmConfKeys.METRICS_PARAMETERS).orElse("").contains("ignore_private_data")) {
      return null;
    }
    boolean hasGpus = gres.slots().stream().anyMatch(s -> s.getName().equals("gpu"));
    return new NodeMetrics(nodeName, () -> {
      java.util.Set<Integer> all = new java.util.HashSet<>(jobs.runningJobs());
      all.addAll(steps.runningJobs());
      return all;
    }, limiter, ProcReader.system(), hasGpus ? org.corral.slurmd.gres.NvidiaSmi.system() : null);
  }

  private static CgroupConf loadCgroupConf(SlurmConfig cfg, System.Logger log) throws ConfigException {
    Path file = cfg.path().resolveSibling("cgroup.conf");
    if (!java.nio.file.Files.isRegularFile(file)) {
      return CgroupConf.defaults();
    }
    CgroupConf conf = CgroupConf.load(file);
    conf.warnings().forEach(w -> log.log(Level.WARNING, w));
    return conf;
  }

  /** slurmd -C: the host's node line, with the GPUs AutoDetect finds when a gres.conf asks for it. */
  private static void printHardware(String name, Path conf) {
    try {
      String host = JobSupervisor.shortHostName();
      String nodeName = name != null ? name : host;
      Path slurmConf = conf != null ? conf : SlurmConfig.defaultPath(System.getenv());
      String gres = org.corral.slurmd.gres.GresInventory.detectedSummary(slurmConf.resolveSibling("gres.conf"),
          nodeName, org.corral.slurmd.gres.NvidiaSmi.system());
      System.out.print(HardwareLine.read(Path.of("/")).render(nodeName, gres));
    } catch (IOException | ConfigException e) {
      System.err.println("slurmd: error: " + e.getMessage());
      System.exit(1);
    }
  }

  public static void main(String[] args) {
    org.corral.common.FailFast.install(); // no half-alive daemon: a dead thread ends the process
    String name = null;
    Path conf = null;
    boolean verbose = false;
    boolean printGres = false;
    boolean printHardware = false;
    String confServer = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        // -s: Slurm's unit files pass it (change to the log's directory); Corral's daemons never
        // depend on their working directory, and its units are Slurm's (dist/systemd).
        case "-D", "-s" -> { }
        case "-N" -> name = args[++i];
        case "-f" -> conf = Path.of(args[++i]);
        case "-v", "-vv", "-vvv" -> verbose = true;
        case "-G" -> printGres = true;
        case "-C" -> printHardware = true;
        case "--conf-server" -> confServer = args[++i];
        case "-V" -> {
          System.out.println(Version.TEXT);
          return;
        }
        default -> {
          if (args[i].startsWith("--conf-server=")) {
            confServer = args[i].substring("--conf-server=".length());
            continue;
          }
          System.err.println("slurmd: unrecognized option '" + args[i] + "'");
          System.exit(1);
        }
      }
    }
    if (printHardware) { // needs no slurm.conf, as Slurm's
      printHardware(name, conf);
      return;
    }
    try {
      String host = JobSupervisor.shortHostName();
      String nodeName = name != null ? name : host;
      if (confServer != null) { // configless: the controller's files, cached
        conf = ConfiglessStart.fetch(confServer, nodeName, host);
      }
      SlurmConfig cfg = SlurmConfig.load(conf != null ? conf : SlurmConfig.defaultPath(System.getenv()));
      Path keyFile = confServer != null ? ConfiglessStart.keyFile() : cfg.path().resolveSibling("slurm.key");
      NodeConfig node = cfg.node(nodeName).orElse(null);
      if (node == null) {
        System.err.println("slurmd: fatal: Unable to determine this slurmd's NodeName (" + nodeName
            + " is not in " + cfg.path() + ")");
        System.exit(1);
      }
      org.corral.slurmd.gres.GresInventory gres = org.corral.slurmd.gres.GresInventory.load(
          cfg.path().resolveSibling("gres.conf"), nodeName, node.gres() == null ? "" : node.gres(),
          org.corral.slurmd.gres.NvidiaSmi.system());
      if (printGres) { // what was found, as slurmd -G prints it (on stderr), then exit
        int cores = node.sockets() * node.coresPerSocket();
        gres.describe(cores > 0 ? cores : node.cpus()).forEach(l -> System.err.println("slurmd: " + l));
        return;
      }
      DaemonLogging.setup(cfg.slurmdLogFile()
          .map(t -> Path.of(SlurmConfig.expandNodeTemplate(t, nodeName, host))).orElse(null), verbose,
          DaemonLogging.Options.of(cfg, SlurmConfKeys.SLURMD_SYSLOG_DEBUG, "slurmd"));
      System.Logger log = System.getLogger("slurmd");
      if (node.cpus() > HostFacts.onlineCpus()) {
        log.log(Level.INFO, "node " + nodeName + " is configured with " + node.cpus()
            + " CPUs; this host has " + HostFacts.onlineCpus() + " (configured values are used)");
      }
      Clock clock = Clock.systemUTC();
      int slurmUid = UserDirectory.system().uid(cfg.slurmUser()).orElse(0);
      Credentials creds = new Credentials(
          ClusterKey.load(keyFile, slurmUid), nodeName, clock);
      int beat = Math.max(1, Math.min(30, cfg.slurmdTimeout() / 3));
      ControllerLink link = new ControllerLink(
          org.corral.protocol.ControllerFailover.overTcp(cfg, creds, Duration.ofSeconds(10)),
          node, clock, cfg.killWait(), Duration.ofSeconds(beat));
      Path spool = Path.of(SlurmConfig.expandNodeTemplate(cfg.slurmdSpoolDir(), nodeName, host));
      CgroupConf cgroupConf = loadCgroupConf(cfg, log);
      ResourceLimiter limiter = LimiterSelection.choose(cgroupConf,
          NodeCgroupName.of(cfg, nodeName), node.realMemoryMb() * 1024 * 1024);
      link.cgroupPlugin(limiter.name());
      link.gres(gres.slots());
      JobConfinement confinement = new JobConfinement(limiter, node.cpus(), JobConfinement.hostCpus(),
          ProcReader.system(), nodeName);
      confinement.gres(gres);
      org.corral.slurmd.gres.GresEnvironment.register(nodeName, gres);
      if (cgroupConf.constrainDevices() && limiter.name().startsWith("cgroup/")) {
        confinement.devices(gres);
      } else if (cgroupConf.constrainDevices()) {
        log.log(Level.WARNING, "ConstrainDevices=yes: " + limiter.name() + " leaves jobs every device");
      }
      HookSettings hookSettings = HookSettings.of(cfg,
          java.util.Optional.ofNullable(System.getProperty("corral.bin"))); // set by bin/slurmd
      NodeJobHooks nodeHooks = new NodeJobHooks(hookSettings, nodeName, cfg.path().toString(), spool);
      JobSupervisor jobs = new JobSupervisor(spool, nodeName, clock, link, confinement,
          GatherFrequency.taskSeconds(cfg.value(SlurmConfKeys.JOB_ACCT_GATHER_FREQUENCY)), nodeHooks);
      StepManager steps = new StepManager(spool, nodeName, cfg.path().toString(), clock, cfg.killWait(), link,
          confinement, nodeHooks.scriptPrefix());
      org.corral.slurmd.launch.TaskPlugins taskPlugins = org.corral.slurmd.launch.TaskPlugins.load(cfg, spool);
      jobs.useTaskPlugins(taskPlugins);
      steps.useTaskPlugins(taskPlugins);
      // Before any request can make a scope; an allocation still running gets its scope again with
      // its next step.
      var idle = limiter.removeIdleJobs(jobs.spooledJobs());
      if (!idle.isEmpty()) {
        log.log(Level.INFO, "removed the cgroups an earlier slurmd left of ended jobs " + idle);
      }
      RpcServer server = RpcServer.start(new RpcServerConfig(
          node.addr().isEmpty() ? "0.0.0.0" : node.addr(), node.port(), null, 64 << 20,
          Duration.ofMinutes(1), 256), creds, null, new NodeService(jobs, steps, cfg.path().toString(),
          new AllocationHooks(nodeHooks, link::hookDone), new NodeReconfigure(cfg,
              confServer != null ? cfg.path().getParent() : null, nodeName, nodeHooks,
              java.util.Optional.ofNullable(System.getProperty("corral.bin")))), nodeMetrics(cfg, nodeName, jobs, steps, limiter, gres));
      link.attach(jobs, steps);
      jobs.recover();
      HealthCheck health = hookSettings.healthCheckProgram().isPresent()
          ? new HealthCheck(hookSettings, nodeName, cfg.path().toString(), () -> jobs.runningJobs().size())
          : null;
      if (health != null) {
        health.runNow(); // before registering, as slurmd does
        health.start();
      }
      link.start();
      Path pid = Path.of(SlurmConfig.expandNodeTemplate(cfg.slurmdPidFile(), nodeName, host));
      PidFile.write(pid);
      Object done = new Object();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        server.close();
        if (health != null) {
          health.close();
        }
        link.close();
        jobs.close();
        steps.close();
        confinement.awaitRemovals();
        limiter.shutdown();
        PidFile.remove(pid);
        synchronized (done) {
          done.notifyAll();
        }
      }));
      log.log(Level.INFO, "slurmd version " + Version.NUMBER + " started as node " + nodeName
          + " on port " + node.port());
      synchronized (done) {
        done.wait();
      }
    } catch (ConfigException e) {
      System.err.println("slurmd: error: " + e.getMessage());
      System.exit(1);
    } catch (IOException e) {
      System.err.println("slurmd: fatal: " + e.getMessage());
      System.exit(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package org.corral.ctld.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.corral.common.SlurmError;
import org.corral.common.config.CgroupConf;
import org.corral.common.config.ChangedKeys;
import org.corral.common.config.ConfigException;
import org.corral.common.config.GresConf;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.Peer;
import org.corral.protocol.configless.ConfigFiles;
import org.corral.protocol.msg.ConfigFile;
import org.corral.protocol.msg.ConfigFilesReply;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeReconfigureRequest;
import org.corral.protocol.msg.PartitionInfo;

/**
 * {@code scontrol reconfigure}: slurm.conf (and gres.conf, cgroup.conf beside it) read again. A
 * file that does not parse is refused with its file, line and reason, and the controller keeps
 * its state and the configuration it runs with (Slurm 22.05's slurmctld exits on such a file).
 * What Corral applies at once, as Slurm does: the node and partition definitions (partitions back
 * to slurm.conf's, undoing {@code scontrol update partition}), what {@code scontrol show config}
 * prints, and the node daemons, told to re-read theirs (configless ones get the files). Nodes
 * added or removed need a restart, as in Slurm ("MaxNodeCount has changed"): refused. Other keys
 * that changed are logged as taking effect when slurmctld restarts.
 *
 * <p>With {@code SlurmctldParameters=enable_configless} this also serves the files to configless
 * daemons ({@code slurmd --conf-server}).
 */
final class Reconfiguration {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private final Authorizer auth;
  private final Clock clock;
  private final NodeAgent agent;
  private final Consumer<SlurmConfig> onApplied;
  private volatile SlurmConfig current;

  /** @param onApplied told of each configuration applied (what show config prints follows it) */
  Reconfiguration(SlurmConfig cfg, Authorizer auth, Clock clock, NodeAgent agent, Consumer<SlurmConfig> onApplied) {
    this.current = cfg;
    this.auth = auth;
    this.clock = clock;
    this.agent = agent;
    this.onApplied = onApplied;
  }

  SlurmConfig current() {
    return current;
  }

  /**
   * Reads the files again (off the writer thread); the commands that apply them, once the
   * writer has checked them against the state it holds.
   */
  Prepared prepare(Peer peer) {
    if (!auth.isSuperUser(peer)) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    SlurmConfig next;
    try {
      next = SlurmConfig.load(current.path());
      checkSiblings(next.path());
    } catch (ConfigException e) {
      LOG.log(Level.ERROR, "reconfigure refused, the running configuration is kept: " + e.getMessage());
      throw new SlurmException(SlurmError.UNEXPECTED, e.getMessage());
    }
    int before = current.nodes().size();
    int after = next.nodes().size();
    if (before != after || !nodeNames(current).equals(nodeNames(next))) {
      String why = "MaxNodeCount has changed (" + before + "->" + after + ") during reconfig, slurmctld must be restarted";
      LOG.log(Level.ERROR, why + "; the running configuration is kept");
      throw new SlurmException(SlurmError.NEED_RESTART, why);
    }
    return new Prepared(next);
  }

  /** A configuration read and checked, to apply on the writer thread. */
  final class Prepared {
    private final SlurmConfig next;

    private Prepared(SlurmConfig next) {
      this.next = next;
    }

    Decision<Void> apply(ClusterState s) {
      long now = clock.instant().getEpochSecond();
      List<NodeInfo> nodes = ConfiguredCluster.nodes(next);
      List<PartitionInfo> partitions = kept(ConfiguredCluster.partitions(next), s.partitions(),
          next.text(SlurmConfKeys.RECONFIG_FLAGS).orElse(""));
      Set<String> names = new TreeSet<>();
      partitions.forEach(p -> names.add(p.getName()));
      for (JobRecord r : s.jobs().values()) {
        if (!JobStates.isFinished(r.getInfo()) && !names.contains(r.getInfo().getPartition())) {
          LOG.log(Level.ERROR, "Invalid partition (" + r.getInfo().getPartition() + ") for JobId="
              + r.getInfo().getJobId());
        }
      }
      return new Decision<>(List.of(new Command.LoadConfig(nodes, partitions, now),
          new Command.SetPartitions(partitions, now)), null, List.of());
    }

    /**
     * Once {@link #apply}'s commands are durable, before the caller is answered: the new
     * configuration is the one served from then on (a writer's effects would run after the answer).
     */
    void adopt(ClusterState s) {
      applied(next, s);
    }
  }

  /**
   * The partitions after a reconfigure: slurm.conf's; with ReconfigFlags=KeepPartInfo the ones in
   * memory where they exist (those only in memory kept too), with KeepPartState slurm.conf's
   * with the State each had in memory.
   */
  static List<PartitionInfo> kept(List<PartitionInfo> configured, List<PartitionInfo> live, String flags) {
    Set<String> f = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    f.addAll(List.of(flags.split(",")));
    java.util.Map<String, PartitionInfo> byName = new java.util.LinkedHashMap<>();
    live.forEach(p -> byName.put(p.getName(), p));
    if (f.contains("KeepPartInfo")) {
      List<PartitionInfo> out = new ArrayList<>();
      configured.forEach(p -> out.add(byName.getOrDefault(p.getName(), p)));
      live.stream().filter(p -> out.stream().noneMatch(o -> o.getName().equals(p.getName()))).forEach(out::add);
      return out;
    }
    if (f.contains("KeepPartState")) {
      return configured.stream().map(p -> byName.containsKey(p.getName())
          ? p.toBuilder().setState(byName.get(p.getName()).getState()).build() : p).toList();
    }
    return configured;
  }

  /** After the new configuration is in the state: logs what waits for a restart, tells the nodes. */
  private void applied(SlurmConfig next, ClusterState s) {
    SlurmConfig old = current;
    current = next;
    onApplied.accept(next);
    for (String key : ChangedKeys.between(old, next, Set.of("nodename", "partitionname", "nodeset"))) {
      LOG.log(Level.INFO, "reconfigure: " + key + " changed; slurmctld applies it when restarted");
    }
    NodeReconfigureRequest.Builder req = NodeReconfigureRequest.newBuilder();
    if (configless(next)) {
      req.addAllFiles(filesOrNone(next));
    }
    NodeReconfigureRequest message = req.build();
    for (NodeInfo n : s.nodesInOrder()) {
      if (!n.getNotResponding() && n.getBaseState() != org.corral.protocol.msg.NodeBaseState.NODE_FUTURE
          && n.getSlurmdStartTime() != 0) {
        Thread.ofVirtual().start(() -> agent.reconfigure(n, message));
      }
    }
    LOG.log(Level.INFO, "_slurm_rpc_reconfigure_controller: completed");
  }

  /** {@code REQUEST_CONFIG}: the files, when the controller runs configless; refused otherwise. */
  ConfigFilesReply files(Peer peer) {
    SlurmConfig cfg = current;
    if (!configless(cfg)) {
      throw new SlurmException(SlurmError.CONFIGLESS_DISABLED);
    }
    try {
      return ConfigFilesReply.newBuilder().addAllFiles(ConfigFiles.read(cfg.path())).build();
    } catch (IOException e) {
      LOG.log(Level.ERROR, "configless: cannot read the files: " + e.getMessage());
      throw new SlurmException(SlurmError.UNEXPECTED, e.getMessage());
    }
  }

  private static List<ConfigFile> filesOrNone(SlurmConfig cfg) {
    try {
      return ConfigFiles.read(cfg.path());
    } catch (IOException e) {
      LOG.log(Level.ERROR, "configless: cannot read the files: " + e.getMessage());
      return List.of();
    }
  }

  static boolean configless(SlurmConfig cfg) {
    for (String p : cfg.text(SlurmConfKeys.SLURMCTLD_PARAMETERS).orElse("").split(",")) {
      if (p.trim().equalsIgnoreCase("enable_configless")) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> nodeNames(SlurmConfig cfg) {
    Set<String> out = new TreeSet<>();
    cfg.nodes().forEach(n -> out.add(n.name()));
    return out;
  }

  /** gres.conf and cgroup.conf beside slurm.conf, where they exist, must parse too. */
  private static void checkSiblings(Path slurmConf) throws ConfigException {
    Path gres = slurmConf.resolveSibling("gres.conf");
    if (Files.isRegularFile(gres)) {
      GresConf.load(gres);
    }
    Path cgroup = slurmConf.resolveSibling("cgroup.conf");
    if (Files.isRegularFile(cgroup)) {
      CgroupConf.load(cgroup);
    }
  }
}

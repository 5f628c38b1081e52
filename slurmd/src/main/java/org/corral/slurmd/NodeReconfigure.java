package org.corral.slurmd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.corral.common.config.CgroupConf;
import org.corral.common.config.ChangedKeys;
import org.corral.common.config.ConfigException;
import org.corral.common.config.GresConf;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.configless.ConfigCache;
import org.corral.protocol.msg.NodeReconfigureRequest;
import org.corral.slurmd.hooks.HookSettings;
import org.corral.slurmd.hooks.NodeJobHooks;

/**
 * A node daemon's part of {@code scontrol reconfigure}: a configless node first stores the files
 * the controller sent in its cache; then slurm.conf (and gres.conf, cgroup.conf) are read again.
 * A file that does not parse, or a slurm.conf without this node, is refused and the daemon keeps
 * what it runs with. The Prolog, Epilog and PrologEpilogTimeout apply to jobs from now on; other
 * keys that changed are logged as taking effect when slurmd restarts. Running jobs and steps are
 * not touched.
 */
final class NodeReconfigure {
  private static final System.Logger LOG = System.getLogger("slurmd");

  private final Path confPath;
  private final Path cacheDir;
  private final String nodeName;
  private final NodeJobHooks hooks;
  private final Optional<String> commandsDir;
  private SlurmConfig current;

  /** @param cacheDir where a configless node keeps the controller's files (null: not configless) */
  NodeReconfigure(SlurmConfig cfg, Path cacheDir, String nodeName, NodeJobHooks hooks, Optional<String> commandsDir) {
    this.current = cfg;
    this.confPath = cfg.path();
    this.cacheDir = cacheDir;
    this.nodeName = nodeName;
    this.hooks = hooks;
    this.commandsDir = commandsDir;
  }

  synchronized void apply(NodeReconfigureRequest req) throws IOException, ConfigException {
    if (cacheDir != null && req.getFilesCount() > 0) {
      ConfigCache.write(cacheDir, req.getFilesList());
    }
    SlurmConfig next = SlurmConfig.load(confPath);
    if (next.node(nodeName).isEmpty()) {
      throw new ConfigException(confPath, 0, null, "this node (" + nodeName + ") is no longer defined");
    }
    for (String sibling : new String[] {"gres.conf", "cgroup.conf"}) {
      Path p = confPath.resolveSibling(sibling);
      if (Files.isRegularFile(p)) {
        if (sibling.equals("gres.conf")) {
          GresConf.load(p);
        } else {
          CgroupConf.load(p);
        }
      }
    }
    hooks.settings(HookSettings.of(next, commandsDir));
    for (String key : ChangedKeys.between(current, next, Set.of("prolog", "epilog", "prologepilogtimeout"))) {
      LOG.log(Level.INFO, "reconfigure: " + key + " changed; slurmd applies it when restarted");
    }
    current = next;
    LOG.log(Level.INFO, "reconfigured from " + confPath);
  }
}

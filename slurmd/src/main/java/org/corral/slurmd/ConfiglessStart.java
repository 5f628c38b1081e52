package org.corral.slurmd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.configless.ConfigCache;
import org.corral.protocol.configless.ConfigFetch;
import org.corral.protocol.msg.ConfigFile;

/**
 * {@code slurmd --conf-server host[:port]}: the node has no slurm.conf of its own. It asks the
 * controller for the files (signed with the cluster key, slurm.key in the directory where
 * slurm.conf would be: /etc/slurm, or $SLURM_CONF's), stores them in
 * SlurmdSpoolDir/conf-cache as Slurm does, and runs from there. Until a controller answers it
 * tries again every 10 seconds, as Slurm's slurmd does.
 */
final class ConfiglessStart {
  private static final System.Logger LOG = System.getLogger("slurmd");
  private static final Duration RETRY = Duration.ofSeconds(10);

  private ConfiglessStart() {}

  /** Where the key is: beside the slurm.conf the node would otherwise read. */
  static Path keyFile() {
    return SlurmConfig.defaultPath(System.getenv()).resolveSibling("slurm.key");
  }

  /** The cached slurm.conf, once fetched. */
  static Path fetch(String servers, String nodeName, String host) throws IOException, ConfigException {
    List<ConfigFetch.Server> list;
    try {
      list = ConfigFetch.Server.parseList(servers);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage());
    }
    Credentials creds = new Credentials(ClusterKey.load(keyFile()), nodeName, Clock.systemUTC());
    List<ConfigFile> files;
    while (true) {
      try {
        files = ConfigFetch.fetch(list, creds, Duration.ofSeconds(10));
        break;
      } catch (IOException e) {
        System.err.println("slurmd: error: fetch_config: failed to fetch remote configs: " + e.getMessage());
        try {
          Thread.sleep(RETRY.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted");
        }
      }
    }
    String text = files.stream().filter(f -> f.getName().equals("slurm.conf")).findFirst()
        .map(f -> f.getContent().toString(StandardCharsets.UTF_8))
        .orElseThrow(() -> new IOException("configuration server sent no slurm.conf"));
    SlurmConfig cfg = SlurmConfig.parse(text, Path.of("slurm.conf"));
    Path cache = cacheDir(cfg, nodeName, host);
    Path conf = ConfigCache.write(cache, files);
    LOG.log(Level.INFO, "configless: fetched " + files.size() + " files into " + cache);
    return conf;
  }

  /** SlurmdSpoolDir/conf-cache for this node. */
  static Path cacheDir(SlurmConfig cfg, String nodeName, String host) {
    return Path.of(SlurmConfig.expandNodeTemplate(cfg.slurmdSpoolDir(), nodeName, host)).resolve("conf-cache");
  }
}

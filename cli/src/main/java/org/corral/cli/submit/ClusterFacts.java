package org.corral.cli.submit;

import java.nio.file.Path;
import java.util.Map;
import org.corral.common.config.SlurmConfig;

/**
 * What srun and salloc take from slurm.conf: the cluster's name (SLURM_CLUSTER_NAME), where
 * its controller listens (SLURM_WORKING_CLUSTER), KillWait (how long a step may take to
 * end once aborted), and the configuration file itself (SLURM_CONF).
 */
public record ClusterFacts(String clusterName, String controllerHost, int controllerPort,
    int killWait, Path confPath) {

  /** Slurm 22.05's RPC protocol version and select plugin id, as SLURM_WORKING_CLUSTER shows. */
  private static final String PROTOCOL_AND_PLUGIN = ":9728:109";

  /** slurm.conf as found through SLURM_CONF; defaults where it cannot be read. */
  public static ClusterFacts load(Map<String, String> env) {
    Path path = SlurmConfig.defaultPath(env);
    try {
      SlurmConfig c = SlurmConfig.loadShared(path);
      return new ClusterFacts(c.clusterName(), c.controllerHost(), c.slurmctldPort(), c.killWait(), path);
    } catch (Exception e) {
      return new ClusterFacts("", "", 6817, 30, path);
    }
  }

  /** "CLUSTER:HOST:PORT:PROTOCOL:PLUGIN" (SLURM_WORKING_CLUSTER). */
  public String workingCluster() {
    return clusterName + ":" + controllerHost + ":" + controllerPort + PROTOCOL_AND_PLUGIN;
  }
}

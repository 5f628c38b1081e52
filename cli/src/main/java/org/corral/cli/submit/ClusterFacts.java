package org.corral.cli.submit;

import java.nio.file.Path;
import java.util.Map;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;

/**
 * What srun and salloc take from slurm.conf: the cluster's name (SLURM_CLUSTER_NAME), where
 * its controller listens (SLURM_WORKING_CLUSTER), KillWait (how long a step may take to
 * end once aborted), the configuration file itself (SLURM_CONF) and MpiDefault (srun's --mpi
 * when neither the option nor SLURM_MPI_TYPE says).
 */
public record ClusterFacts(String clusterName, String controllerHost, int controllerPort,
    int killWait, Path confPath, String mpiDefault) {

  /** Slurm 22.05's RPC protocol version and select plugin id, as SLURM_WORKING_CLUSTER shows. */
  private static final String PROTOCOL_AND_PLUGIN = ":9728:109";

  public ClusterFacts(String clusterName, String controllerHost, int controllerPort, int killWait, Path confPath) {
    this(clusterName, controllerHost, controllerPort, killWait, confPath, "none");
  }

  /** slurm.conf as found through SLURM_CONF; defaults where it cannot be read. */
  public static ClusterFacts load(Map<String, String> env) {
    Path path = SlurmConfig.defaultPath(env);
    try {
      SlurmConfig c = SlurmConfig.loadShared(path);
      return new ClusterFacts(c.clusterName(), c.controllerHost(), c.slurmctldPort(), c.killWait(), path,
          c.value(SlurmConfKeys.MPI_DEFAULT));
    } catch (Exception e) {
      return new ClusterFacts("", "", 6817, 30, path);
    }
  }

  /** "CLUSTER:HOST:PORT:PROTOCOL:PLUGIN" (SLURM_WORKING_CLUSTER). */
  public String workingCluster() {
    return clusterName + ":" + controllerHost + ":" + controllerPort + PROTOCOL_AND_PLUGIN;
  }
}

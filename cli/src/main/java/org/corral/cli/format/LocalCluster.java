package org.corral.cli.format;

import java.util.List;
import java.util.Map;
import org.corral.common.config.SlurmConfig;

/**
 * The cluster the accounting commands ask slurmdbd about when not told: slurm.conf's
 * ClusterName, as Slurm's sacct and sreport use. Empty when there is none (slurmdbd's own).
 */
public final class LocalCluster {
  private LocalCluster() {}

  public static List<String> of(Map<String, String> env) {
    try {
      String name = SlurmConfig.loadShared(SlurmConfig.defaultPath(env)).clusterName();
      return name == null || name.isEmpty() ? List.of() : List.of(name);
    } catch (Exception e) {
      return List.of();
    }
  }
}

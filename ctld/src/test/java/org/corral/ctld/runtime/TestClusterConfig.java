package org.corral.ctld.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.ClusterKey;

/** The slurm.conf and key of an in-process controller test, in its temporary directory. */
final class TestClusterConfig {
  private TestClusterConfig() {}

  /**
   * @param settings lines after the common ones (SlurmdTimeout=..., NodeName=..., PartitionName=...)
   */
  static SlurmConfig write(Path dir, int ctldPort, String settings) throws Exception {
    Files.writeString(dir.resolve("slurm.conf"), """
        ClusterName=test
        SlurmctldHost=localhost(127.0.0.1)
        SlurmctldPort=%d
        SlurmUser=root
        StateSaveLocation=%s/state
        SlurmctldPidFile=%s/slurmctld.pid
        """.formatted(ctldPort, dir, dir) + settings);
    ClusterKey.generate(dir.resolve("slurm.key"));
    return SlurmConfig.load(dir.resolve("slurm.conf"));
  }
}

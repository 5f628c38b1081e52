package org.corral.protocol;

import java.nio.file.Path;
import org.corral.common.config.SlurmConfig;

/**
 * Where a host's sack socket is (AuthType=auth/slurm): beside the controller's pid file (/run by
 * default), named after SlurmctldPort as the daemons' sockets are, so that clusters sharing a
 * host each have their own. Slurm's is /run/slurm/sack.socket, one per host.
 */
public final class SackSocket {
  private SackSocket() {}

  public static Path of(SlurmConfig cfg) {
    return Path.of(cfg.slurmctldPidFile()).toAbsolutePath()
        .resolveSibling("sack-" + cfg.slurmctldPort() + ".socket");
  }
}

package org.corral.protocol;

import java.nio.file.Path;
import org.corral.common.config.SlurmConfig;

/**
 * Where commands and daemons reach the controller. Local users go through a Unix socket beside
 * the controller's pid file (so the kernel vouches for their identity); daemons use TCP.
 */
public final class ControllerAddress {
  private ControllerAddress() {}

  public static Path unixSocket(SlurmConfig cfg) {
    Path pid = Path.of(cfg.slurmctldPidFile()).toAbsolutePath();
    return pid.resolveSibling("slurmctld-" + cfg.slurmctldPort() + ".sock");
  }
}

package org.corral.protocol;

import java.nio.file.Path;
import org.corral.common.config.SlurmConfig;

/**
 * Where commands and daemons reach the controller. Local users go through a Unix socket beside
 * the controller's pid file (so the kernel vouches for their identity); daemons use TCP.
 *
 * <p>With several controllers (SlurmctldHost listed more than once) each has a socket of its
 * own, so that controllers sharing a host (tests, a laptop) do not meet: the primary's keeps the
 * one controller's name, backup N's adds {@code -N}.
 */
public final class ControllerAddress {
  private ControllerAddress() {}

  public static Path unixSocket(SlurmConfig cfg) {
    return unixSocket(cfg, 0);
  }

  /** The Unix socket of controller {@code index} (0: the primary) in SlurmctldHost's order. */
  public static Path unixSocket(SlurmConfig cfg, int index) {
    Path pid = Path.of(cfg.slurmctldPidFile()).toAbsolutePath();
    String suffix = index == 0 ? "" : "-" + index;
    return pid.resolveSibling("slurmctld-" + cfg.slurmctldPort() + suffix + ".sock");
  }
}

package org.corral.protocol;

import java.nio.file.Path;

/**
 * Where local commands (sacct, sacctmgr, sshare, sreport) reach slurmdbd: a Unix socket, so the
 * kernel vouches for who asks. slurmdbd makes it beside its pid file, named after its port; the
 * commands find it beside the controller's pid file, named after AccountingStoragePort. The two
 * agree when both pid files share a directory (/run by default, the cluster's directory under
 * {@code corral up}).
 */
public final class DbdAddress {
  private DbdAddress() {}

  public static Path unixSocket(Path pidFile, int port) {
    return pidFile.toAbsolutePath().resolveSibling("slurmdbd-" + port + ".sock");
  }
}

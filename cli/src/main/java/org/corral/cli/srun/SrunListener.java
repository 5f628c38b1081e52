package org.corral.cli.srun;

import java.io.IOException;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Optional;
import org.corral.common.config.SlurmConfig;

/**
 * Where srun listens for its tasks' I/O and how the nodes reach it: a port within SrunPortRange
 * (any free one without it), and this host's address on the route to the controller (the
 * interface the nodes' network reaches; a host name need not resolve, and Debian resolves its own
 * to 127.0.1.1, which no other host can reach).
 */
final class SrunListener {
  private SrunListener() {}

  /** A listener bound on every interface, within SrunPortRange when slurm.conf sets one. */
  static ServerSocket open(Path conf) throws IOException {
    ServerSocket listener = new ServerSocket();
    try {
      Optional<int[]> range = portRange(conf);
      if (range.isEmpty()) {
        listener.bind(new InetSocketAddress(0), 128);
        return listener;
      }
      for (int port = range.get()[0]; port <= range.get()[1]; port++) {
        try {
          listener.bind(new InetSocketAddress(port), 128);
          return listener;
        } catch (BindException taken) {
          // the next one
        }
      }
      throw new IOException("no free port in SrunPortRange=" + range.get()[0] + "-"
          + range.get()[1]);
    } catch (IOException | RuntimeException e) {
      listener.close();
      throw e;
    }
  }

  /** SrunPortRange=LOW-HIGH, or empty when unset or unreadable. */
  static Optional<int[]> portRange(Path conf) {
    try {
      Optional<String> value = SlurmConfig.loadShared(conf).get("SrunPortRange");
      if (value.isEmpty()) {
        return Optional.empty();
      }
      String[] parts = value.get().strip().split("-");
      int low = Integer.parseInt(parts[0].strip());
      int high = parts.length > 1 ? Integer.parseInt(parts[1].strip()) : low;
      return low >= 1 && high >= low && high <= 65535 ? Optional.of(new int[] {low, high})
          : Optional.empty();
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /**
   * This host's address as the nodes reach it (SLURM_SRUN_COMM_HOST): the local end of the route
   * to the controller's address (no packet is sent), else what the host name resolves to.
   */
  static String commHost(Path conf, String hostName) {
    try {
      String controller = SlurmConfig.loadShared(conf).controllerAddr();
      try (DatagramSocket probe = new DatagramSocket()) {
        probe.connect(InetAddress.getByName(controller), 9);
        InetAddress local = probe.getLocalAddress();
        if (local != null && !local.isAnyLocalAddress()) {
          return local.getHostAddress();
        }
      }
    } catch (Exception e) {
      // no slurm.conf or no route: fall back to the name
    }
    try {
      return InetAddress.getByName(hostName).getHostAddress();
    } catch (IOException e) {
      return "127.0.0.1";
    }
  }
}

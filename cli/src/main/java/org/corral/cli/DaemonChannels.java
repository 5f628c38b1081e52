package org.corral.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.ControllerFailover;
import org.corral.protocol.DbdAddress;
import org.corral.protocol.ClientAuth;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.SackClient;
import org.corral.protocol.SackSocket;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.UserChannel;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.auth.MungeAuth;

/**
 * How a command reaches slurmctld or slurmdbd. On the daemon's own host its Unix socket is there
 * and the kernel vouches for the user (the fast path); elsewhere the command goes over TCP to the
 * address slurm.conf gives, with a MUNGE credential (AuthType=auth/munge, Slurm's default) or one
 * its host's sackd or slurmd mints (AuthType=auth/slurm).
 */
public final class DaemonChannels {
  private static final Duration TIMEOUT = UnixSocketChannel.DEFAULT_TIMEOUT;
  /** How long a command looks for the controller that leads (a takeover takes seconds). */
  private static final long FAILOVER_PATIENCE_MS = 60_000;

  private DaemonChannels() {}

  static RpcChannel controller(SlurmConfig cfg) {
    if (!cfg.replicatedControllers()) {
      return controller(cfg, 0);
    }
    List<RpcChannel> all = new ArrayList<>();
    for (int i = 0; i < cfg.controllers().size(); i++) {
      all.add(controller(cfg, i));
    }
    return new ControllerFailover(all, FAILOVER_PATIENCE_MS);
  }

  /** Controller {@code index} of SlurmctldHost's list alone (scontrol ping asks each). */
  public static RpcChannel controller(SlurmConfig cfg, int index) {
    Path socket = ControllerAddress.unixSocket(cfg, index);
    if (Files.exists(socket)) {
      return new UnixSocketChannel(socket);
    }
    return remote(cfg, cfg.controllers().get(index).addr(), cfg.slurmctldPort(), "slurmctld");
  }

  static RpcChannel accounting(SlurmConfig cfg) {
    Path socket = DbdAddress.unixSocket(Path.of(cfg.slurmctldPidFile()), cfg.accounting().port());
    if (Files.exists(socket)) {
      return new UnixSocketChannel(socket);
    }
    return remote(cfg, cfg.accounting().host(), cfg.accounting().port(), "slurmdbd");
  }

  private static RpcChannel remote(SlurmConfig cfg, String host, int port, String daemon) {
    return new UserChannel(host, port, daemon, clientAuth(cfg, daemon), TIMEOUT);
  }

  private static ClientAuth clientAuth(SlurmConfig cfg, String daemon) {
    if ("auth/slurm".equals(cfg.authType())) {
      return new SackClient(SackSocket.of(cfg));
    }
    MungeAuth auth = MungeAuth.forAuthType(cfg.authType(), cfg.text(SlurmConfKeys.AUTH_INFO).orElse(null),
        Clock.systemUTC(), null);
    if (auth == null) {
      throw new IllegalStateException("no " + daemon + " socket on this host ("
          + (daemon.equals("slurmctld") ? ControllerAddress.unixSocket(cfg) : "beside "
          + cfg.slurmctldPidFile()) + ") and AuthType=" + cfg.authType()
          + " has no credential for commands on other hosts (use auth/munge or auth/slurm)");
    }
    int slurmUid = UserDirectory.system().uid(cfg.slurmUser()).orElse(0);
    return auth.client(uid -> uid == 0 || uid == slurmUid);
  }
}

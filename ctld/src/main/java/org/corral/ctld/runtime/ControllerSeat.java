package org.corral.ctld.runtime;

import java.nio.file.Path;
import java.util.List;
import org.corral.common.config.ControllerHost;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.msg.PingReply;

/**
 * Which of the configured controllers this process is: its place in SlurmctldHost's order (0:
 * the primary), its host name, where it listens. A controller alone listens on every address, as
 * before; one of several listens on its own SlurmctldHost address only, so that several can share
 * a host (each at its own loopback address, 127.0.0.1, 127.0.0.2, ...).
 */
public record ControllerSeat(int index, String host, String bindAddress, Path socket, int count) {

  /** The one controller of a cluster with a single SlurmctldHost. */
  public static ControllerSeat single(SlurmConfig cfg) {
    return new ControllerSeat(0, cfg.controllerHost(), "0.0.0.0", ControllerAddress.unixSocket(cfg), 1);
  }

  /** Controller {@code index} of several. */
  public static ControllerSeat of(SlurmConfig cfg, int index) {
    List<ControllerHost> all = cfg.controllers();
    ControllerHost h = all.get(index);
    return new ControllerSeat(index, h.host(), h.addr(), ControllerAddress.unixSocket(cfg, index), all.size());
  }

  /** What this controller answers to a ping. */
  public PingReply ping(boolean leader) {
    return PingReply.newBuilder().setHost(host).setPrimary(index == 0).setLeader(leader).setIndex(index).build();
  }
}

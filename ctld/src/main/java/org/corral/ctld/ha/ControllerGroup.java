package org.corral.ctld.ha;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.corral.common.config.ControllerHost;
import org.corral.common.config.SlurmConfig;

/**
 * The Raft group the configured controllers form, read from slurm.conf alone so that every
 * controller derives the same one: a member per SlurmctldHost line, in order, named by its host;
 * each reached at its SlurmctldHost address on port SlurmctldPort + {@value #RAFT_PORT_OFFSET}
 * (6917 by default); the group's id derived from ClusterName. Each controller keeps its Raft log
 * and snapshots under StateSaveLocation/ha-HOST, so that controllers sharing a host (or a
 * StateSaveLocation) never touch each other's.
 */
record ControllerGroup(RaftGroup raftGroup, RaftPeer self, int index, Path dir) {
  static final int RAFT_PORT_OFFSET = 100;

  static ControllerGroup of(SlurmConfig cfg, int index) {
    List<ControllerHost> hosts = cfg.controllers();
    List<RaftPeer> peers = new ArrayList<>();
    for (ControllerHost h : hosts) {
      peers.add(RaftPeer.newBuilder().setId(h.host())
          .setAddress(h.addr() + ":" + raftPort(cfg)).build());
    }
    RaftGroupId id = RaftGroupId.valueOf(
        UUID.nameUUIDFromBytes(("corral-slurmctld:" + cfg.clusterName()).getBytes(StandardCharsets.UTF_8)));
    Path dir = cfg.stateSaveLocation().resolve("ha-" + hosts.get(index).host());
    return new ControllerGroup(RaftGroup.valueOf(id, peers), peers.get(index), index, dir);
  }

  static int raftPort(SlurmConfig cfg) {
    return cfg.slurmctldPort() + RAFT_PORT_OFFSET;
  }

  /**
   * Which controller this process is: the one {@code name} names (slurmctld's {@code --controller}),
   * else the one whose host is this host's short name, as Slurm's slurmctld decides.
   *
   * @throws IllegalArgumentException if none matches
   */
  static int indexOf(SlurmConfig cfg, String name, String hostName) {
    List<ControllerHost> hosts = cfg.controllers();
    String want = name != null ? name : hostName;
    for (int i = 0; i < hosts.size(); i++) {
      if (hosts.get(i).host().equals(want)) {
        return i;
      }
    }
    throw new IllegalArgumentException("this host (" + want + ") is not a valid controller: SlurmctldHost names "
        + hosts.stream().map(ControllerHost::host).toList()
        + (name == null ? " (slurmctld --controller NAME chooses one)" : ""));
  }
}

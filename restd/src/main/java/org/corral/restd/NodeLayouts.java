package org.corral.restd;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.NodeInfo;

/**
 * The nodes' hardware layout (CPUs, sockets, cores, threads, memory) as slurm.conf defines it,
 * for the jobs' job_resources and the partitions' configured TRES. slurmrestd reads slurm.conf
 * once at start, as Slurm's does: a reconfigure that changes a node's layout needs a restart.
 */
final class NodeLayouts {
  private NodeLayouts() {}

  static Function<String, NodeInfo> of(SlurmConfig cfg) {
    Map<String, NodeInfo> byName = new HashMap<>();
    for (NodeConfig n : cfg.nodes()) {
      byName.put(n.name(), NodeInfo.newBuilder().setName(n.name()).setCpus(n.cpus()).setSockets(n.sockets())
          .setCoresPerSocket(n.coresPerSocket()).setThreadsPerCore(n.threadsPerCore())
          .setRealMemoryMb(n.realMemoryMb()).build());
    }
    return Map.copyOf(byName)::get;
  }
}

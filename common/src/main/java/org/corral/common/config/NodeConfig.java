package org.corral.common.config;

import java.util.List;

/**
 * One compute node as slurm.conf describes it (NodeName= lines, expanded from hostlists, with
 * NodeName=DEFAULT values applied). {@code sockets} is the node's total; {@code hostname} and
 * {@code addr} default to the name; {@code port} defaults to SlurmdPort; {@code gres} and
 * {@code reason} are empty when not given; {@code state} is upper case, default UNKNOWN.
 */
public record NodeConfig(String name, String hostname, String addr, int port, int cpus, int boards,
    int sockets, int coresPerSocket, int threadsPerCore, long realMemoryMb, long tmpDiskMb, int weight,
    List<String> features, String gres, String state, String reason) {
  public NodeConfig {
    features = List.copyOf(features);
  }
}

package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.TreePMap;

/**
 * The controller's whole state, immutable. The writer thread derives each new state from the
 * last with {@link StateMachine#apply}; readers (squeue, sinfo, the scheduler) hold whichever
 * version they were handed and never block the writer. Persistent maps make each step cheap.
 *
 * @param jobs every job still in memory, by id
 * @param nodes every configured node, by name
 * @param nodeOrder node names in configuration order (how Slurm lists them)
 * @param partitions partitions from slurm.conf, in configuration order
 * @param nextJobId the id the next submission gets; never reused, journaled with each submit
 * @param lastUpdate when anything last changed (epoch seconds)
 * @param outbox accounting events slurmdbd has not stored yet
 * @param reservations advance reservations (scontrol create reservation)
 */
public record ClusterState(
    TreePMap<Integer, JobRecord> jobs,
    PMap<String, NodeInfo> nodes,
    List<String> nodeOrder,
    List<PartitionInfo> partitions,
    int nextJobId,
    long lastUpdate,
    AcctOutbox outbox,
    Reservations reservations) {

  /** A state without reservations. */
  public ClusterState(TreePMap<Integer, JobRecord> jobs, PMap<String, NodeInfo> nodes, List<String> nodeOrder,
      List<PartitionInfo> partitions, int nextJobId, long lastUpdate, AcctOutbox outbox) {
    this(jobs, nodes, nodeOrder, partitions, nextJobId, lastUpdate, outbox, Reservations.EMPTY);
  }

  public static ClusterState empty(int firstJobId) {
    return new ClusterState(TreePMap.empty(), HashTreePMap.empty(), List.of(), List.of(),
        firstJobId, 0, AcctOutbox.EMPTY);
  }

  public Optional<JobRecord> job(int id) {
    return Optional.ofNullable(jobs.get(id));
  }

  public Optional<NodeInfo> node(String name) {
    return Optional.ofNullable(nodes.get(name));
  }

  public Optional<PartitionInfo> partition(String name) {
    return partitions.stream().filter(p -> p.getName().equals(name)).findFirst();
  }

  public Optional<PartitionInfo> defaultPartition() {
    return partitions.stream().filter(PartitionInfo::getIsDefault).findFirst();
  }

  /** Nodes in configuration order. */
  public List<NodeInfo> nodesInOrder() {
    List<NodeInfo> out = new ArrayList<>(nodeOrder.size());
    for (String n : nodeOrder) {
      NodeInfo node = nodes.get(n);
      if (node != null) {
        out.add(node);
      }
    }
    return out;
  }

  ClusterState withJobs(TreePMap<Integer, JobRecord> j, long time) {
    return new ClusterState(j, nodes, nodeOrder, partitions, nextJobId, Math.max(lastUpdate, time), outbox,
        reservations);
  }

  ClusterState withNodes(PMap<String, NodeInfo> n, long time) {
    return new ClusterState(jobs, n, nodeOrder, partitions, nextJobId, Math.max(lastUpdate, time), outbox,
        reservations);
  }

  /** The same state with the next job id raised to at least {@code id}. */
  public ClusterState withNextJobIdAtLeast(int id) {
    return new ClusterState(jobs, nodes, nodeOrder, partitions, Math.max(nextJobId, id), lastUpdate, outbox,
        reservations);
  }

  ClusterState withOutbox(AcctOutbox o) {
    return new ClusterState(jobs, nodes, nodeOrder, partitions, nextJobId, lastUpdate, o, reservations);
  }

  ClusterState withReservations(Reservations r, long time) {
    return new ClusterState(jobs, nodes, nodeOrder, partitions, nextJobId, Math.max(lastUpdate, time), outbox, r);
  }
}

package org.corral.ctld.state;

import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.StateSnapshot;
import org.pcollections.HashTreePMap;
import org.pcollections.TreePMap;

/**
 * The state to and from a snapshot. Partitions are not kept: they come from slurm.conf at every
 * start (see {@link Command.LoadConfig}); nodes are kept for their state (down, drained, reason).
 */
public final class SnapshotCodec {
  private SnapshotCodec() {}

  public static byte[] encode(ClusterState s, long lastIndex) {
    return StateSnapshot.newBuilder()
        .setLastIndex(lastIndex)
        .setNextJobId(s.nextJobId())
        .addAllJobs(s.jobs().values())
        .addAllNodes(s.nodesInOrder())
        .addAllAcctOutbox(s.outbox().events().values())
        .setNextAcctEvent(s.outbox().nextEventId())
        .addAllReservations(s.reservations().all())
        .setReservationsCreated(s.reservations().created())
        .build()
        .toByteArray();
  }

  public static ClusterState decode(byte[] data) throws InvalidProtocolBufferException {
    StateSnapshot snap = StateSnapshot.parseFrom(data);
    TreePMap<Integer, JobRecord> jobs = TreePMap.empty();
    for (JobRecord r : snap.getJobsList()) {
      jobs = jobs.plus(r.getInfo().getJobId(), r);
    }
    List<String> order = new ArrayList<>();
    Map<String, NodeInfo> nodes = new java.util.HashMap<>();
    for (NodeInfo n : snap.getNodesList()) {
      order.add(n.getName());
      nodes.put(n.getName(), n);
    }
    return new ClusterState(jobs, HashTreePMap.from(nodes), List.copyOf(order), List.of(),
        snap.getNextJobId(), 0, AcctOutbox.of(snap.getAcctOutboxList(), snap.getNextAcctEvent()),
        new Reservations(snap.getReservationsList(), snap.getReservationsCreated()));
  }
}

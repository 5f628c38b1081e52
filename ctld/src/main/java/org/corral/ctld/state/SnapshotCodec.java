package org.corral.ctld.state;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.StateSnapshot;
import org.pcollections.HashTreePMap;
import org.pcollections.TreePMap;

/**
 * The state to and from a snapshot. Nodes are kept for their state (down, drained, reason);
 * partitions as last set, which only {@code slurmctld -R} restores (a plain start takes
 * slurm.conf's, see {@link Command.LoadConfig}).
 */
public final class SnapshotCodec {
  private SnapshotCodec() {}

  public static byte[] encode(ClusterState s, long lastIndex) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(s, lastIndex, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array cannot fail
    }
    return out.toByteArray();
  }

  /**
   * Writes a {@code StateSnapshot} message one record at a time, as {@link #encode} would give
   * it, without building it whole first: the state is an immutable version, so this may run on
   * any thread while the writer goes on.
   */
  public static void write(ClusterState s, long lastIndex, OutputStream to) throws IOException {
    CodedOutputStream out = CodedOutputStream.newInstance(to, 1 << 16);
    out.writeUInt64(StateSnapshot.LAST_INDEX_FIELD_NUMBER, lastIndex);
    out.writeUInt32(StateSnapshot.NEXT_JOB_ID_FIELD_NUMBER, s.nextJobId());
    for (JobRecord r : s.jobs().values()) {
      out.writeMessage(StateSnapshot.JOBS_FIELD_NUMBER, r);
    }
    for (NodeInfo n : s.nodesInOrder()) {
      out.writeMessage(StateSnapshot.NODES_FIELD_NUMBER, n);
    }
    for (AcctEvent e : s.outbox().events().values()) {
      out.writeMessage(StateSnapshot.ACCT_OUTBOX_FIELD_NUMBER, e);
    }
    out.writeUInt64(StateSnapshot.NEXT_ACCT_EVENT_FIELD_NUMBER, s.outbox().nextEventId());
    for (ReservationInfo r : s.reservations().all()) {
      out.writeMessage(StateSnapshot.RESERVATIONS_FIELD_NUMBER, r);
    }
    out.writeUInt32(StateSnapshot.RESERVATIONS_CREATED_FIELD_NUMBER, s.reservations().created());
    for (org.corral.protocol.msg.PartitionInfo p : s.partitions()) {
      out.writeMessage(StateSnapshot.PARTITIONS_FIELD_NUMBER, p);
    }
    out.flush();
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
    return new ClusterState(jobs, HashTreePMap.from(nodes), List.copyOf(order),
        List.copyOf(snap.getPartitionsList()),
        snap.getNextJobId(), 0, AcctOutbox.of(snap.getAcctOutboxList(), snap.getNextAcctEvent()),
        new Reservations(snap.getReservationsList(), snap.getReservationsCreated()));
  }
}

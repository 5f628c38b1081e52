package org.corral.ctld.ha;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;
import org.corral.ctld.jobdata.JobData;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.SnapshotCodec;
import org.corral.ctld.state.StateMachine;

/**
 * The controller's state as the Raft group has committed it, on every controller alike: each
 * committed entry goes through the same {@link StateMachine#apply} the local journal's recovery
 * uses. A follower keeps it current so that it can lead at once; the leader's writer runs ahead of
 * it by the batches in flight and starts from it when it takes over.
 *
 * <p>Snapshots are Ratis' (taken every {@code SNAPSHOT_ENTRIES} entries, and sent to a follower
 * that fell behind the pruned log): the file is Corral's own snapshot format ({@link
 * SnapshotCodec}) at the Raft index it covers.
 */
final class ReplicatedState extends BaseStateMachine {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
  private final int firstJobId;
  private final JobData jobData;
  private volatile ClusterState state;

  ReplicatedState(int firstJobId, JobData jobData) {
    this.firstJobId = firstJobId;
    this.jobData = jobData;
    this.state = ClusterState.empty(firstJobId);
  }

  /** The committed state and the last index applied to it, read together. */
  synchronized Applied applied() {
    return new Applied(state, getLastAppliedTermIndex() == null ? 0 : getLastAppliedTermIndex().getIndex());
  }

  record Applied(ClusterState state, long index) {}

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
    super.initialize(server, groupId, raftStorage);
    storage.init(raftStorage);
    load(storage.loadLatestSnapshot());
  }

  @Override
  public void reinitialize() throws IOException {
    load(storage.loadLatestSnapshot()); // a snapshot installed from the leader
  }

  private synchronized void load(SingleFileSnapshotInfo snapshot) throws IOException {
    if (snapshot == null) {
      return;
    }
    File f = snapshot.getFile().getPath().toFile();
    ClusterState s = SnapshotCodec.decode(Files.readAllBytes(f.toPath()));
    state = s.nextJobId() < firstJobId ? s.withNextJobIdAtLeast(firstJobId) : s;
    updateLastAppliedTermIndex(snapshot.getTermIndex());
    LOG.log(Level.INFO, "replicated state: snapshot at index " + snapshot.getIndex() + " loaded ("
        + s.jobs().size() + " jobs)");
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    byte[] data = entry.getStateMachineLogEntry().getLogData().toByteArray();
    try {
      apply(RaftEntry.decode(data), entry.getIndex());
    } catch (IOException e) {
      // Every controller applies the same entries: one that cannot be read here cannot anywhere.
      LOG.log(Level.ERROR, "replicated entry " + entry.getIndex() + " cannot be applied: " + e);
      return CompletableFuture.failedFuture(e);
    }
    synchronized (this) {
      updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    }
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  private void apply(RaftEntry e, long index) throws IOException {
    switch (e) {
      case RaftEntry.Batch b -> {
        ClusterState s = state;
        for (byte[] r : b.records()) {
          try {
            s = StateMachine.apply(s, CommandCodec.decode(r));
          } catch (InvalidProtocolBufferException ex) {
            throw new IOException("entry " + index + ": " + ex.getMessage(), ex);
          }
        }
        synchronized (this) {
          state = s;
        }
      }
      case RaftEntry.Blob b -> jobData.put(b.hash(), b.content());
    }
  }

  @Override
  public long takeSnapshot() throws IOException {
    Applied a;
    TermIndex last;
    synchronized (this) {
      a = applied();
      last = getLastAppliedTermIndex();
    }
    if (last == null) {
      return RaftLog_INVALID;
    }
    File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
    try (FileChannel ch = FileChannel.open(file.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch));
      SnapshotCodec.write(a.state(), last.getIndex(), out);
      out.flush();
      ch.force(true); // durable before Ratis purges the log it replaces
    }
    MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
    storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), last));
    LOG.log(Level.INFO, "replicated state: snapshot at index " + last.getIndex() + " (" + a.state().jobs().size()
        + " jobs)");
    return last.getIndex();
  }

  private static final long RaftLog_INVALID = -1;
}

package org.corral.ctld.ha;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.corral.ctld.journal.StateLog;

/**
 * The state log of one of several controllers: the writer's batch goes to the Raft group as one
 * entry, and {@link #commit} returns once a majority holds it and this controller has applied it
 * (Ratis answers a write after its state machine applied it). A controller that does not lead
 * gets {@link StateLog.NotLeaderException}, and so does one whose entry is not committed within
 * {@code COMMIT_TIMEOUT_S} (cut off from the majority: the new leader decides its fate).
 */
final class ReplicatedLog implements StateLog {
  private static final long COMMIT_TIMEOUT_S = 20;

  private final RaftServer server;
  private final ControllerGroup group;
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();
  private final List<byte[]> pending = new ArrayList<>();
  private long lastIndex;

  ReplicatedLog(RaftServer server, ControllerGroup group) {
    this.server = server;
    this.group = group;
  }

  @Override
  public void append(byte[] record) {
    pending.add(record);
    lastIndex++;
  }

  @Override
  public void commit() throws IOException {
    if (pending.isEmpty()) {
      return;
    }
    byte[] entry = RaftEntry.encode(new RaftEntry.Batch(List.copyOf(pending)));
    pending.clear();
    send(entry);
  }

  /** Commits an empty batch: once it returns, everything committed before is applied here. */
  void barrier() throws IOException {
    send(RaftEntry.encode(new RaftEntry.Batch(List.of())));
  }

  /** Replicates a job data file (any thread). */
  void replicateBlob(String hash, byte[] content) throws IOException {
    send(RaftEntry.encode(new RaftEntry.Blob(hash, content)));
  }

  private void send(byte[] entry) throws IOException {
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(clientId)
        .setServerId(group.self().getId())
        .setGroupId(group.raftGroup().getGroupId())
        .setCallId(callIds.incrementAndGet())
        .setMessage(Message.valueOf(ByteString.copyFrom(entry)))
        .setType(RaftClientRequest.writeRequestType())
        .build();
    RaftClientReply reply;
    try {
      reply = server.submitClientRequestAsync(request).get(COMMIT_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while replicating");
    } catch (TimeoutException e) {
      throw new NotLeaderException("no majority committed the entry within " + COMMIT_TIMEOUT_S + " s");
    } catch (ExecutionException e) {
      throw new NotLeaderException("replication failed: " + e.getCause());
    }
    if (!reply.isSuccess()) {
      if (reply.getNotLeaderException() != null) {
        throw new NotLeaderException("the leader is now " + reply.getNotLeaderException().getSuggestedLeader());
      }
      throw new NotLeaderException("replication failed: " + reply.getException());
    }
  }

  @Override
  public long lastIndex() {
    return lastIndex;
  }

  @Override
  public boolean writerSnapshots() {
    return false; // Ratis snapshots the replicated state itself
  }

  @Override
  public long bytesSinceSnapshot() {
    return 0;
  }

  @Override
  public PendingSnapshot startSnapshot(long index) {
    throw new UnsupportedOperationException("the replicated log takes its own snapshots");
  }

  @Override
  public void finishSnapshot(PendingSnapshot p) {
    throw new UnsupportedOperationException("the replicated log takes its own snapshots");
  }

  @Override
  public void close() {
    // the Raft server outlives one term of leadership; ReplicatedController closes it
  }
}

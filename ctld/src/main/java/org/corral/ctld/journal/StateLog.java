package org.corral.ctld.journal;

import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * Where the controller's writer records its commands: the local {@link Journal} (one disk), a
 * replicated log (a Raft group of controllers), or memory (tests). The writer does not know which
 * it has: it appends each durable command of a batch, then commits the batch once, and answers
 * nobody before the commit returns.
 *
 * <p>One batch is one commit: a log that can lose part of a batch must not exist (the local
 * journal syncs a batch with one write, the replicated log sends it as one Raft entry), so a
 * decision's commands survive all or none.
 */
public interface StateLog extends AutoCloseable {

  /** Adds an encoded command to the batch being built. Not durable until {@link #commit}. */
  void append(byte[] record) throws IOException;

  /**
   * Makes every appended record durable (local: one fsync; replicated: held by a majority) and
   * starts a new batch. Throws when that cannot be known, after which nothing may be acknowledged.
   */
  void commit() throws IOException;

  /** Tells {@code observer} how long each commit's sync took (the metrics' journal fsync latency). */
  default void onCommit(LongConsumer observer) {
  }

  /** The index of the last record appended. */
  long lastIndex();

  /**
   * Whether the writer takes snapshots of this log ({@link #startSnapshot}); false where the log
   * takes its own (the replicated log snapshots through Raft).
   */
  default boolean writerSnapshots() {
    return true;
  }

  /** Bytes appended since the newest snapshot: a measure of replay work. */
  long bytesSinceSnapshot();

  /** Begins a snapshot of the state through {@code index}; see {@link Journal#startSnapshot}. */
  PendingSnapshot startSnapshot(long index) throws IOException;

  /** Takes a written snapshot as the newest. */
  void finishSnapshot(PendingSnapshot p) throws IOException;

  @Override
  void close() throws IOException;

  /**
   * Thrown by {@link #commit} when this controller does not (or no longer) lead its group:
   * whether the batch survives is decided elsewhere, so nothing of it may be acknowledged, and
   * this controller must stop serving (clients go on to the next controller).
   */
  final class NotLeaderException extends IOException {
    public NotLeaderException(String message) {
      super(message);
    }
  }

  /** A snapshot being written: any thread may write it, once. */
  interface PendingSnapshot {
    long index();

    void write(SnapshotBody state) throws IOException;
  }
}

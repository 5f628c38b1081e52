package org.corral.ctld.journal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A state log in memory, for tests: what a commit made "durable" is kept and can be read back
 * ({@link #committed()}), with the newest snapshot, to check what a recovery would rebuild.
 * Thread-safe, so a test may read it while the writer appends.
 */
public final class InMemoryLog implements StateLog {
  private final List<byte[]> committed = new ArrayList<>();
  private final List<byte[]> pending = new ArrayList<>();
  private long bytesSinceSnapshot;
  private long snapshotIndex;
  private byte[] snapshot;
  private int commits;

  @Override
  public synchronized void append(byte[] record) {
    pending.add(record.clone());
    bytesSinceSnapshot += record.length;
  }

  @Override
  public synchronized void commit() {
    if (!pending.isEmpty()) {
      committed.addAll(pending);
      pending.clear();
      commits++;
    }
  }

  @Override
  public synchronized long lastIndex() {
    return committed.size() + pending.size();
  }

  @Override
  public synchronized long bytesSinceSnapshot() {
    return bytesSinceSnapshot;
  }

  /** Every committed record, oldest first (index = position + 1). */
  public synchronized List<byte[]> committed() {
    return List.copyOf(committed);
  }

  /** How many commits made records durable (one per batch that had any). */
  public synchronized int commits() {
    return commits;
  }

  /** The newest snapshot's bytes and the index it covers, or null if none. */
  public synchronized byte[] snapshot() {
    return snapshot;
  }

  public synchronized long snapshotIndex() {
    return snapshotIndex;
  }

  @Override
  public synchronized PendingSnapshot startSnapshot(long index) {
    commit();
    bytesSinceSnapshot = 0;
    return new PendingSnapshot() {
      @Override
      public long index() {
        return index;
      }

      @Override
      public void write(SnapshotBody state) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        state.writeTo(out);
        synchronized (InMemoryLog.this) {
          if (index >= snapshotIndex) {
            snapshot = out.toByteArray();
            snapshotIndex = index;
          }
        }
      }
    };
  }

  @Override
  public void finishSnapshot(PendingSnapshot p) {}

  @Override
  public void close() {}
}

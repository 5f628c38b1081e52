package org.corral.ctld.journal;

import java.io.IOException;

/** The state log of a controller alone: its {@link Journal} on the local disk (group commit, one fsync a batch). */
public final class LocalJournalLog implements StateLog {
  private final Journal journal;

  public LocalJournalLog(Journal journal) {
    this.journal = journal;
  }

  @Override
  public void append(byte[] record) throws IOException {
    journal.append(record);
  }

  @Override
  public void commit() throws IOException {
    journal.sync();
  }

  @Override
  public void onCommit(java.util.function.LongConsumer observer) {
    journal.onSync(observer);
  }

  @Override
  public long lastIndex() {
    return journal.lastIndex();
  }

  @Override
  public long bytesSinceSnapshot() {
    return journal.bytesSinceSnapshot();
  }

  @Override
  public PendingSnapshot startSnapshot(long index) throws IOException {
    return journal.startSnapshot(index);
  }

  @Override
  public void finishSnapshot(PendingSnapshot p) throws IOException {
    journal.finishSnapshot((Journal.PendingSnapshot) p);
  }

  @Override
  public void close() throws IOException {
    journal.close();
  }
}

package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * The controller's durable log: opaque records with consecutive indexes, in segment files, plus
 * snapshots of the state they build.
 *
 * <p>Group commit: {@link #append} only frames a record into memory; {@link #sync} writes every
 * pending record with one write and one fdatasync. The controller answers a client only after the
 * sync that covers the client's record returns, so a crash loses nothing acknowledged, and one
 * fsync is shared by all the commands that arrived meanwhile.
 *
 * <p>Recovery ({@link #open}) loads the newest intact snapshot and every intact record after it
 * ({@link #recovery()}). A crash mid-write leaves a torn last record, which is cut off. Other
 * damage stops STRICT recovery with a {@link JournalCorruptException}; IGNORE_DAMAGE keeps what is
 * intact up to the damage and sets the rest aside in {@code *.damaged} files.
 *
 * <p>Snapshots: the newest two are kept, and segments are pruned once the older of the two covers
 * them, so a damaged newest snapshot can always fall back to the previous one plus the journal.
 *
 * <p>Not thread-safe, on purpose: one thread (the controller's writer thread) owns the journal,
 * like the state it records, so there is no lock on the append path. After a write or fsync fails
 * the journal refuses further use, since what reached the disk is unknown (a failed fsync may have
 * dropped dirty pages); reopening recovers the truth.
 */
public final class Journal implements AutoCloseable {
  private final Path dir;
  private final JournalOptions options;
  private final DirectoryLock lock;
  private final Recovery recovery;
  private final PendingBatch pending = new PendingBatch();
  private SegmentWriter segment;
  private long lastIndex;
  private long snapshotIndex;
  private long syncedBytesSinceSnapshot;
  private IOException failure;
  private boolean closed;

  private Journal(
      Path dir,
      JournalOptions options,
      DirectoryLock lock,
      JournalRecovery.Outcome outcome,
      SegmentWriter segment) {
    this.dir = dir;
    this.options = options;
    this.lock = lock;
    this.recovery = outcome.recovery();
    this.segment = segment;
    this.lastIndex = outcome.lastIndex();
    this.snapshotIndex = outcome.recovery().snapshotIndex();
    this.syncedBytesSinceSnapshot = outcome.bytesSinceSnapshot();
  }

  /** Opens (creating if needed) the journal in {@code dir} with default options. */
  public static Journal open(Path dir, RecoveryMode mode)
      throws IOException, JournalCorruptException {
    return open(dir, mode, JournalOptions.defaults());
  }

  /** Opens (creating if needed) the journal in {@code dir}, recovering what is there. */
  public static Journal open(Path dir, RecoveryMode mode, JournalOptions options)
      throws IOException, JournalCorruptException {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(options, "options");
    Files.createDirectories(dir);
    DirectoryLock lock = DirectoryLock.acquire(dir);
    try {
      JournalRecovery.Outcome outcome = JournalRecovery.recover(dir, mode);
      long next = outcome.lastIndex() + 1;
      // A surviving last segment is continued only if its next index is the journal's next index;
      // otherwise (a snapshot ahead of it, damage set aside) a new segment starts at the right
      // index.
      SegmentWriter segment =
          outcome.tail().filter(t -> t.nextIndex() == next).isPresent()
              ? SegmentWriter.reopen(outcome.tail().get())
              : SegmentWriter.create(dir, next);
      return new Journal(dir, options, lock, outcome, segment);
    } catch (IOException | JournalCorruptException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /** What {@link #open} recovered: the snapshot and the records to replay after it. */
  public Recovery recovery() {
    return recovery;
  }

  /**
   * Adds a record to the pending batch and returns its index. Not durable until {@link #sync}.
   *
   * @throws IllegalArgumentException if data is larger than 64 MiB
   */
  public long append(byte[] data) throws IOException {
    Objects.requireNonNull(data, "data");
    ensureUsable();
    if (data.length > RecordFrame.MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          "journal record of "
              + data.length
              + " bytes exceeds the limit of "
              + RecordFrame.MAX_PAYLOAD_BYTES
              + " bytes");
    }
    long index = lastIndex + 1;
    pending.add(index, data);
    lastIndex = index;
    return index;
  }

  private volatile LongConsumer syncObserver;

  /** Hears how long each batch's write and fdatasync took (nanoseconds); it must be quick. */
  public void onSync(LongConsumer observer) {
    this.syncObserver = observer;
  }

  /** Makes every appended record durable: one write and one fdatasync; nothing to do if none. */
  public void sync() throws IOException {
    ensureUsable();
    if (pending.isEmpty()) {
      return;
    }
    try {
      if (segment.hasRecords() && segment.size() + pending.bytes() > options.maxSegmentBytes()) {
        roll(pending.firstIndex());
      }
      int bytes = pending.bytes();
      long t0 = System.nanoTime();
      segment.writeDurably(pending.contents());
      LongConsumer observer = syncObserver;
      if (observer != null) {
        observer.accept(System.nanoTime() - t0);
      }
      syncedBytesSinceSnapshot += bytes;
      pending.clear();
    } catch (IOException | RuntimeException e) {
      throw fail(e);
    }
  }

  /** The index of the last record appended (synced or not); the snapshot's index if none since. */
  public long lastIndex() {
    return lastIndex;
  }

  /**
   * Durably and atomically stores a snapshot of the state after applying every record through
   * {@code lastIndex}, then starts a new segment and prunes what the older retained snapshot
   * covers. Pending records are synced first.
   *
   * @throws IllegalArgumentException unless {@code lastIndex} lies between the newest snapshot's
   *     index and {@link #lastIndex()}
   */
  public void writeSnapshot(long lastIndex, byte[] state) throws IOException {
    Objects.requireNonNull(state, "state");
    PendingSnapshot p = startSnapshot(lastIndex);
    p.write(out -> out.write(state));
    finishSnapshot(p);
  }

  /**
   * A snapshot being written: started and finished by the journal's owner, written by any thread
   * meanwhile (the owner goes on appending), so that writing a large state stalls no one.
   */
  public final class PendingSnapshot implements StateLog.PendingSnapshot {
    private final long index;
    private volatile boolean written;

    private PendingSnapshot(long index) {
      this.index = index;
    }

    @Override
    public long index() {
      return index;
    }

    /** Streams the state into the snapshot file and makes it durable (any thread, once). */
    @Override
    public void write(SnapshotBody state) throws IOException {
      SnapshotFile.write(dir, index, state);
      written = true;
    }
  }

  /**
   * Begins a snapshot of the state through {@code lastIndex}: syncs pending records and starts a
   * new segment for the records after it. Write it with {@link PendingSnapshot#write}, then
   * {@link #finishSnapshot}. One at a time.
   *
   * @throws IllegalArgumentException unless {@code lastIndex} lies between the newest snapshot's
   *     index and {@link #lastIndex()}
   */
  public PendingSnapshot startSnapshot(long lastIndex) throws IOException {
    ensureUsable();
    if (lastIndex < snapshotIndex || lastIndex > this.lastIndex) {
      throw new IllegalArgumentException(
          "snapshot index "
              + lastIndex
              + " must lie between the newest snapshot's "
              + snapshotIndex
              + " and the journal's last index "
              + this.lastIndex);
    }
    sync();
    try {
      syncedBytesSinceSnapshot = 0;
      if (segment.hasRecords()) {
        roll(this.lastIndex + 1);
      }
    } catch (IOException | RuntimeException e) {
      throw fail(e);
    }
    return new PendingSnapshot(lastIndex);
  }

  /** Takes a written snapshot as the newest and prunes what the older retained one covers. */
  public void finishSnapshot(PendingSnapshot p) throws IOException {
    ensureUsable();
    if (!p.written) {
      return; // its write failed: the journal still holds everything
    }
    snapshotIndex = Math.max(snapshotIndex, p.index());
    try {
      prune();
    } catch (IOException | RuntimeException e) {
      throw fail(e);
    }
  }

  /**
   * Framed bytes of the records appended since the newest snapshot was written (after it, at open),
   * pending ones included: a measure of replay work, for deciding when to snapshot.
   */
  public long bytesSinceSnapshot() {
    return syncedBytesSinceSnapshot + pending.bytes();
  }

  /** Syncs pending records (unless a write failed earlier) and releases the directory. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      if (failure == null) {
        sync();
      }
    } finally {
      closed = true;
      try {
        segment.close();
      } finally {
        lock.close();
      }
    }
  }

  private void roll(long nextIndex) throws IOException {
    segment.close();
    segment = SegmentWriter.create(dir, nextIndex);
  }

  /** Keeps the newest two snapshots and the segments holding records after the older one. */
  private void prune() throws IOException {
    List<JournalFiles.Numbered> snapshots = JournalFiles.snapshots(dir);
    boolean changed = false;
    for (int i = 0; i < snapshots.size() - 2; i++) {
      Files.delete(snapshots.get(i).path());
      changed = true;
    }
    long keepAfter = snapshots.size() >= 2 ? snapshots.get(snapshots.size() - 2).index() : 0;
    List<JournalFiles.Numbered> segments = JournalFiles.segments(dir);
    for (int i = 0; i + 1 < segments.size(); i++) {
      boolean covered = segments.get(i + 1).index() <= keepAfter + 1;
      if (covered && !segments.get(i).path().equals(segment.file())) {
        Files.delete(segments.get(i).path());
        changed = true;
      }
    }
    if (changed) {
      JournalFiles.syncDirectory(dir);
    }
  }

  private void ensureUsable() throws IOException {
    if (closed) {
      throw new IllegalStateException("journal " + dir + " is closed");
    }
    if (failure != null) {
      throw new IOException(
          "journal " + dir + " stopped after a failed write; reopen it to recover", failure);
    }
  }

  private IOException fail(Exception e) {
    failure = e instanceof IOException io ? io : new IOException(e);
    return failure;
  }
}

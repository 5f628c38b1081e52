package org.corral.ctld.journal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The segment file being appended to. */
final class SegmentWriter implements Closeable {
  private final Path file;
  private final long baseIndex;
  private final FileChannel channel;
  private long size;
  private boolean hasRecords;

  private SegmentWriter(
      Path file, long baseIndex, FileChannel channel, long size, boolean hasRecords) {
    this.file = file;
    this.baseIndex = baseIndex;
    this.channel = channel;
    this.size = size;
    this.hasRecords = hasRecords;
  }

  /** Creates the segment whose first record will be {@code baseIndex}, header durable. */
  static SegmentWriter create(Path dir, long baseIndex) throws IOException {
    Path file = JournalFiles.segment(dir, baseIndex);
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      ByteBuffer header = SegmentHeader.encode(baseIndex);
      while (header.hasRemaining()) {
        channel.write(header);
      }
      channel.force(true);
      // The new name must survive a crash too, or synced records in it would vanish with it.
      JournalFiles.syncDirectory(dir);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new SegmentWriter(file, baseIndex, channel, SegmentHeader.BYTES, false);
  }

  /** Continues a segment recovery left intact, after its last record. */
  static SegmentWriter reopen(SegmentChainReader.Tail tail) throws IOException {
    FileChannel channel = FileChannel.open(tail.file(), StandardOpenOption.WRITE);
    try {
      channel.position(tail.size());
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new SegmentWriter(
        tail.file(), tail.baseIndex(), channel, tail.size(), tail.nextIndex() > tail.baseIndex());
  }

  /** Writes all of {@code records} (one system call in the usual case), then fdatasyncs. */
  void writeDurably(ByteBuffer records) throws IOException {
    while (records.hasRemaining()) {
      size += channel.write(records);
    }
    // force(false) is fdatasync: it still flushes the file size, which reading the records needs.
    channel.force(false);
    hasRecords = true;
  }

  Path file() {
    return file;
  }

  long baseIndex() {
    return baseIndex;
  }

  long size() {
    return size;
  }

  boolean hasRecords() {
    return hasRecords;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}

package org.corral.ctld.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Records appended since the last sync, already framed, in one buffer so that a sync is a single
 * write. The buffer is direct because the channel would otherwise copy a heap buffer into a
 * temporary direct one on every write.
 */
final class PendingBatch {
  private static final int INITIAL_CAPACITY = 256 * 1024;

  /** A buffer grown for an unusually large batch is given back after it is written. */
  private static final int RETAINED_CAPACITY = 8 * 1024 * 1024;

  private final byte[] scratch = new byte[RecordFrame.HEADER_BYTES];
  private final CRC32C crc = new CRC32C();
  private ByteBuffer buffer = ByteBuffer.allocateDirect(INITIAL_CAPACITY);
  private int records;
  private long firstIndex;

  void add(long index, byte[] payload) {
    int frame = RecordFrame.frameBytes(payload.length);
    if (buffer.remaining() < frame) {
      grow(frame);
    }
    if (records == 0) {
      firstIndex = index;
    }
    RecordFrame.encode(buffer, index, payload, scratch, crc);
    records++;
  }

  boolean isEmpty() {
    return records == 0;
  }

  int bytes() {
    return buffer.position();
  }

  long firstIndex() {
    return firstIndex;
  }

  /** The framed records, ready to write; call {@link #clear} once they are written. */
  ByteBuffer contents() {
    return buffer.flip();
  }

  void clear() {
    records = 0;
    if (buffer.capacity() > RETAINED_CAPACITY) {
      buffer = ByteBuffer.allocateDirect(INITIAL_CAPACITY);
    } else {
      buffer.clear();
    }
  }

  private void grow(int frame) {
    long needed = (long) buffer.position() + frame;
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("more than 2 GiB of journal records appended without a sync");
    }
    long capacity = Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * buffer.capacity()));
    ByteBuffer larger = ByteBuffer.allocateDirect((int) capacity);
    larger.put(buffer.flip());
    buffer = larger;
  }
}

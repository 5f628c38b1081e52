package org.corral.ctld.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The on-disk layout of one record: {@code int length | long index | payload | int crc32c}, big
 * endian, where the checksum covers length, index and payload. The length comes first so a reader
 * can find the next record; the checksum comes last so a record cut short by a crash never checks.
 */
final class RecordFrame {
  static final int HEADER_BYTES = Integer.BYTES + Long.BYTES;
  static final int OVERHEAD = HEADER_BYTES + Integer.BYTES;

  /** Larger records are refused on append and read as damage (a length field gone wrong). */
  static final int MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

  private RecordFrame() {}

  /** The result of reading a record at some offset. */
  sealed interface Decoded permits Intact, Broken {}

  /** A record whose checksum matches; its payload is {@code bytes[payloadOffset, +length)}. */
  record Intact(long index, int payloadOffset, int payloadLength) implements Decoded {
    int end() {
      return payloadOffset + payloadLength + Integer.BYTES;
    }
  }

  /** Bytes that are not a whole, checksummed record. */
  record Broken(String problem) implements Decoded {}

  static int frameBytes(int payloadLength) {
    return OVERHEAD + payloadLength;
  }

  /**
   * Appends the framed record to {@code out}, which must have room for {@link #frameBytes}. The
   * scratch array (at least {@link #HEADER_BYTES} long) and checksum are the caller's, reused so
   * that appending allocates nothing.
   */
  static void encode(ByteBuffer out, long index, byte[] payload, byte[] scratch, CRC32C crc) {
    ByteBuffer header = ByteBuffer.wrap(scratch, 0, HEADER_BYTES);
    header.putInt(payload.length).putLong(index);
    crc.reset();
    crc.update(scratch, 0, HEADER_BYTES);
    crc.update(payload, 0, payload.length);
    out.put(scratch, 0, HEADER_BYTES).put(payload).putInt((int) crc.getValue());
  }

  /** Reads the record that starts at {@code offset} of {@code bytes[0, limit)}. */
  static Decoded decode(byte[] bytes, int offset, int limit) {
    int available = limit - offset;
    if (available < HEADER_BYTES) {
      return new Broken(
          "incomplete record header (" + available + " of " + HEADER_BYTES + " bytes)");
    }
    ByteBuffer view = ByteBuffer.wrap(bytes);
    int length = view.getInt(offset);
    if (length < 0 || length > MAX_PAYLOAD_BYTES) {
      return new Broken("impossible record length " + length);
    }
    int frame = frameBytes(length);
    if (available < frame) {
      return new Broken("incomplete record (" + available + " of " + frame + " bytes)");
    }
    if (view.getInt(offset + HEADER_BYTES + length)
        != checksum(bytes, offset, HEADER_BYTES + length)) {
      return new Broken("record checksum mismatch");
    }
    return new Intact(view.getLong(offset + Integer.BYTES), offset + HEADER_BYTES, length);
  }

  /**
   * Whether an intact record with an index in {@code (after, atMost]} starts anywhere in {@code
   * bytes[from, limit)}. Used after a broken record to tell a torn tail (nothing follows) from
   * damage in the middle (good records follow). The index window keeps stray payload bytes from
   * passing for a record; it is checked before the checksum so the scan stays cheap.
   */
  static boolean intactRecordWithin(byte[] bytes, int from, int limit, long after, long atMost) {
    ByteBuffer view = ByteBuffer.wrap(bytes);
    for (int p = from; p + OVERHEAD <= limit; p++) {
      int length = view.getInt(p);
      if (length < 0 || length > limit - p - OVERHEAD) {
        continue;
      }
      long index = view.getLong(p + Integer.BYTES);
      if (index <= after || index > atMost) {
        continue;
      }
      if (view.getInt(p + HEADER_BYTES + length) == checksum(bytes, p, HEADER_BYTES + length)) {
        return true;
      }
    }
    return false;
  }

  private static int checksum(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}

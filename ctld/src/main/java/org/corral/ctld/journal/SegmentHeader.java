package org.corral.ctld.journal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The header every segment file starts with: {@code "CRLJ" | int version | long baseIndex | int
 * crc32c}. The base index is the index of the segment's first record; it repeats the file name so a
 * renamed or misplaced file is noticed.
 */
final class SegmentHeader {
  static final int BYTES = 4 + Integer.BYTES + Long.BYTES + Integer.BYTES;
  static final int VERSION = 1;
  private static final byte[] MAGIC = "CRLJ".getBytes(StandardCharsets.US_ASCII);

  private SegmentHeader() {}

  static ByteBuffer encode(long baseIndex) {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    b.put(MAGIC).putInt(VERSION).putLong(baseIndex);
    b.putInt(checksum(b.array()));
    return b.flip();
  }

  /**
   * Checks the header at the start of {@code bytes} (at least {@link #BYTES} long) and returns what
   * is wrong with it, or null if it is a valid header for {@code expectedBase}.
   */
  static String problem(byte[] bytes, long expectedBase) {
    ByteBuffer b = ByteBuffer.wrap(bytes, 0, BYTES);
    byte[] magic = new byte[MAGIC.length];
    b.get(magic);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      return "not a journal segment (bad magic)";
    }
    int version = b.getInt();
    long base = b.getLong();
    if (b.getInt() != checksum(bytes)) {
      return "segment header checksum mismatch";
    }
    if (version != VERSION) {
      return "unsupported segment version " + version + " (this build reads " + VERSION + ")";
    }
    if (base != expectedBase) {
      return "segment header says base index " + base + " but the file name says " + expectedBase;
    }
    return null;
  }

  private static int checksum(byte[] header) {
    CRC32C crc = new CRC32C();
    crc.update(header, 0, BYTES - Integer.BYTES);
    return (int) crc.getValue();
  }
}

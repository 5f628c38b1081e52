package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * One snapshot file: {@code "CRLS" | int version | long lastIndex | int length | state | int
 * crc32c}, the checksum covering everything before it. Written to a temporary name, fsynced, then
 * renamed over the final name and the directory fsynced, so a crash leaves either the whole new
 * snapshot or none of it.
 */
final class SnapshotFile {
  private static final byte[] MAGIC = "CRLS".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 1;
  private static final int HEADER_BYTES = 4 + Integer.BYTES + Long.BYTES + Integer.BYTES;
  private static final int LENGTH_OFFSET = HEADER_BYTES - Integer.BYTES;

  private SnapshotFile() {}

  /** What reading a snapshot file gave. */
  sealed interface Read permits Loaded, Damaged {}

  record Loaded(byte[] state) implements Read {}

  record Damaged(long offset, String problem) implements Read {}

  /** Writes the snapshot durably and atomically; returns its path. */
  static Path write(Path dir, long lastIndex, byte[] state) throws IOException {
    Path target = JournalFiles.snapshot(dir, lastIndex);
    Path temp = target.resolveSibling(target.getFileName() + JournalFiles.TEMP_SUFFIX);
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.put(MAGIC).putInt(VERSION).putLong(lastIndex).putInt(state.length).flip();
    CRC32C crc = new CRC32C();
    crc.update(header.array());
    crc.update(state);
    ByteBuffer trailer = ByteBuffer.allocate(Integer.BYTES).putInt((int) crc.getValue()).flip();
    ByteBuffer[] parts = {header, ByteBuffer.wrap(state), trailer};
    try (FileChannel out =
        FileChannel.open(
            temp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      while (trailer.hasRemaining()) {
        out.write(parts);
      }
      out.force(true);
    }
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    JournalFiles.syncDirectory(dir);
    return target;
  }

  /** Reads and checks the snapshot file whose name says it covers through {@code lastIndex}. */
  static Read read(Path file, long lastIndex) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < HEADER_BYTES + Integer.BYTES) {
      return new Damaged(0, "snapshot file too short (" + bytes.length + " bytes)");
    }
    ByteBuffer view = ByteBuffer.wrap(bytes);
    if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      return new Damaged(0, "not a snapshot file (bad magic)");
    }
    int length = view.getInt(LENGTH_OFFSET);
    if (length != bytes.length - HEADER_BYTES - Integer.BYTES) {
      return new Damaged(
          LENGTH_OFFSET,
          "snapshot length field says "
              + length
              + " bytes but the file holds "
              + (bytes.length - HEADER_BYTES - Integer.BYTES));
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - Integer.BYTES);
    if (view.getInt(bytes.length - Integer.BYTES) != (int) crc.getValue()) {
      return new Damaged(bytes.length - Integer.BYTES, "snapshot checksum mismatch");
    }
    int version = view.getInt(MAGIC.length);
    if (version != VERSION) {
      return new Damaged(MAGIC.length, "unsupported snapshot version " + version);
    }
    long stored = view.getLong(MAGIC.length + Integer.BYTES);
    if (stored != lastIndex) {
      return new Damaged(
          MAGIC.length + Integer.BYTES,
          "snapshot says it covers through index " + stored + " but its name says " + lastIndex);
    }
    return new Loaded(Arrays.copyOfRange(bytes, HEADER_BYTES, bytes.length - Integer.BYTES));
  }
}

package org.corral.ctld.journal;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * One snapshot file, streamed as it is written (a state of a million jobs never becomes one
 * array): {@code "CRLS" | int 2 | long lastIndex | state | long stateLength | int crc32c}, the
 * checksum covering everything before it. Version 1 files ({@code "CRLS" | int 1 | long lastIndex
 * | int length | state | int crc32c}) are still read. Written to a temporary name, fsynced, then
 * renamed over the final name and the directory fsynced, so a crash leaves either the whole new
 * snapshot or none of it.
 */
final class SnapshotFile {
  private static final byte[] MAGIC = "CRLS".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 2;
  private static final int PREFIX_BYTES = 4 + Integer.BYTES + Long.BYTES;
  private static final int V1_HEADER_BYTES = PREFIX_BYTES + Integer.BYTES;
  private static final int V2_TRAILER_BYTES = Long.BYTES + Integer.BYTES;
  private static final int BUFFER_BYTES = 1 << 16;

  private SnapshotFile() {}

  /** What reading a snapshot file gave. */
  sealed interface Read permits Loaded, Damaged {}

  record Loaded(byte[] state) implements Read {}

  record Damaged(long offset, String problem) implements Read {}

  /** Writes the snapshot durably and atomically; returns its path. */
  static Path write(Path dir, long lastIndex, SnapshotBody state) throws IOException {
    Path target = JournalFiles.snapshot(dir, lastIndex);
    Path temp = target.resolveSibling(target.getFileName() + JournalFiles.TEMP_SUFFIX);
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      CRC32C crc = new CRC32C();
      OutputStream file = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES);
      DataOutputStream out = new DataOutputStream(new CheckedOutputStream(new Unclosable(file), crc));
      out.write(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(lastIndex);
      state.writeTo(out);
      out.flush();
      out.writeLong(channel.position() - PREFIX_BYTES);
      out.flush();
      file.write(ByteBuffer.allocate(Integer.BYTES).putInt((int) crc.getValue()).array());
      file.flush();
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    JournalFiles.syncDirectory(dir);
    return target;
  }

  /** Reads and checks the snapshot file whose name says it covers through {@code lastIndex}. */
  static Read read(Path file, long lastIndex) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < V1_HEADER_BYTES + Integer.BYTES) {
      return new Damaged(0, "snapshot file too short (" + bytes.length + " bytes)");
    }
    ByteBuffer view = ByteBuffer.wrap(bytes);
    if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      return new Damaged(0, "not a snapshot file (bad magic)");
    }
    int version = view.getInt(MAGIC.length);
    int start;
    int end;
    long lengthOffset;
    long length;
    if (version == 1) {
      start = V1_HEADER_BYTES;
      end = bytes.length - Integer.BYTES;
      lengthOffset = PREFIX_BYTES;
      length = view.getInt(PREFIX_BYTES);
    } else {
      start = PREFIX_BYTES;
      end = bytes.length - V2_TRAILER_BYTES;
      lengthOffset = end;
      length = view.getLong(end);
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - Integer.BYTES);
    if (view.getInt(bytes.length - Integer.BYTES) != (int) crc.getValue()) {
      return new Damaged(bytes.length - Integer.BYTES, "snapshot checksum mismatch");
    }
    if (version != 1 && version != VERSION) {
      return new Damaged(MAGIC.length, "unsupported snapshot version " + version);
    }
    if (length != end - start) {
      return new Damaged(lengthOffset, "snapshot length field says " + length + " bytes but the file holds "
          + (end - start));
    }
    long stored = view.getLong(MAGIC.length + Integer.BYTES);
    if (stored != lastIndex) {
      return new Damaged(
          MAGIC.length + Integer.BYTES,
          "snapshot says it covers through index " + stored + " but its name says " + lastIndex);
    }
    return new Loaded(Arrays.copyOfRange(bytes, start, end));
  }

  /** Leaves closing the file to its owner. */
  private static final class Unclosable extends FilterOutputStream {
    Unclosable(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}

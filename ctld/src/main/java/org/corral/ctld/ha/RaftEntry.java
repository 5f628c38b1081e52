package org.corral.ctld.ha;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What one Raft entry of the controllers' group holds: a batch of the writer's encoded commands
 * (one decision batch, so all of it commits or none), or a job's script or environment (a job
 * data file, content-addressed, replicated before the submission that names it).
 *
 * <p>Format: a kind byte, then for a batch a count and each record length-prefixed; for a blob
 * its hash (UTF-8, length-prefixed) and its bytes.
 */
sealed interface RaftEntry {
  byte BATCH = 1;
  byte BLOB = 2;

  record Batch(List<byte[]> records) implements RaftEntry {}

  record Blob(String hash, byte[] content) implements RaftEntry {}

  static byte[] encode(RaftEntry e) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      switch (e) {
        case Batch b -> {
          out.writeByte(BATCH);
          out.writeInt(b.records().size());
          for (byte[] r : b.records()) {
            out.writeInt(r.length);
            out.write(r);
          }
        }
        case Blob b -> {
          out.writeByte(BLOB);
          byte[] h = b.hash().getBytes(StandardCharsets.UTF_8);
          out.writeInt(h.length);
          out.write(h);
          out.writeInt(b.content().length);
          out.write(b.content());
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return bytes.toByteArray();
  }

  static RaftEntry decode(byte[] data) throws IOException {
    DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data));
    byte kind = in.readByte();
    if (kind == BATCH) {
      int n = in.readInt();
      List<byte[]> records = new ArrayList<>(Math.min(n, 4096));
      for (int i = 0; i < n; i++) {
        records.add(in.readNBytes(length(in, data.length)));
      }
      return new Batch(records);
    }
    if (kind == BLOB) {
      String hash = new String(in.readNBytes(length(in, 128)), StandardCharsets.UTF_8);
      return new Blob(hash, in.readNBytes(length(in, data.length)));
    }
    throw new IOException("unknown replicated entry kind " + kind);
  }

  private static int length(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new IOException("replicated entry: length " + n + " out of range");
    }
    return n;
  }
}

package org.corral.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.corral.protocol.msg.IoFrame;

/**
 * The framing of a step's I/O stream between a node daemon and srun: length-delimited
 * {@link IoFrame}s (a varint length, then the message). Reads refuse frames larger than
 * {@link #MAX_FRAME_BYTES}, so a hostile peer cannot make either side allocate without bound.
 */
public final class StepIo {
  /** Output is sent in chunks of at most this many bytes. */
  public static final int CHUNK_BYTES = 64 * 1024;
  public static final int MAX_FRAME_BYTES = CHUNK_BYTES + 1024;

  private StepIo() {}

  /** Writes one frame; callers sharing a stream between threads synchronize on it. */
  public static void write(OutputStream out, IoFrame frame) throws IOException {
    frame.writeDelimitedTo(out);
  }

  /** Reads one frame, or returns null at a clean end of stream. */
  public static IoFrame read(InputStream in) throws IOException {
    int first = in.read();
    if (first == -1) {
      return null;
    }
    int size = readVarint(first, in);
    if (size < 0 || size > MAX_FRAME_BYTES) {
      throw new IOException("step I/O frame of " + Integer.toUnsignedString(size) + " bytes refused (limit "
          + MAX_FRAME_BYTES + ")");
    }
    byte[] body = in.readNBytes(size);
    if (body.length < size) {
      throw new EOFException("step I/O stream ended inside a frame");
    }
    return IoFrame.parseFrom(body);
  }

  private static int readVarint(int first, InputStream in) throws IOException {
    int result = first & 0x7f;
    int b = first;
    for (int shift = 7; (b & 0x80) != 0; shift += 7) {
      if (shift > 28) {
        throw new IOException("malformed step I/O frame length");
      }
      b = in.read();
      if (b == -1) {
        throw new EOFException("step I/O stream ended inside a frame length");
      }
      result |= (b & 0x7f) << shift;
    }
    return result;
  }
}

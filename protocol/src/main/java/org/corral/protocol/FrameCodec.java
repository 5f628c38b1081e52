package org.corral.protocol;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Envelope;

/**
 * The wire framing: uint32 length (big-endian, of what follows), uint16 protocol version, then
 * one serialized {@link Envelope}. The length is checked against a limit before anything of the
 * body is read, so a hostile length never makes us allocate.
 */
public final class FrameCodec {
  public static final int PROTOCOL_VERSION = 1;

  /** Bytes of the version field, counted in the length. */
  static final int VERSION_BYTES = 2;
  /** Length and version. */
  static final int HEADER_BYTES = 4 + VERSION_BYTES;

  private FrameCodec() {}

  /** Writes one frame, in a single write, and flushes. */
  public static void write(OutputStream out, Envelope e) throws IOException {
    int size = e.getSerializedSize();
    ByteBuffer frame = ByteBuffer.allocate(HEADER_BYTES + size);
    frame.putInt(VERSION_BYTES + size).putShort((short) PROTOCOL_VERSION);
    CodedOutputStream coded = CodedOutputStream.newInstance(frame.array(), HEADER_BYTES, size);
    e.writeTo(coded);
    coded.checkNoSpaceLeft();
    out.write(frame.array());
    out.flush();
  }

  /**
   * Reads one frame whose length field (version plus envelope) is at most {@code maxFrameBytes}.
   *
   * @return the envelope, or null when the stream ended cleanly before a new frame began
   * @throws ProtocolException for an oversized, truncated, wrong-version or unparsable frame
   */
  public static Envelope read(InputStream in, int maxFrameBytes)
      throws IOException, ProtocolException {
    int first = in.read();
    if (first < 0) {
      return null;
    }
    long length = ((long) first << 24) | readUnsigned(in, 1, 4, "length");
    if (length > maxFrameBytes) {
      throw new ProtocolException(SlurmError.MESSAGE_TOO_LARGE,
          "frame of " + length + " bytes exceeds the limit of " + maxFrameBytes);
    }
    if (length < VERSION_BYTES) {
      throw new ProtocolException(SlurmError.INVALID_MESSAGE,
          "frame length " + length + " is too short for a version field");
    }
    int version = (int) readUnsigned(in, 0, VERSION_BYTES, "version");
    if (version != PROTOCOL_VERSION) {
      throw new ProtocolException(SlurmError.PROTOCOL_VERSION_ERROR,
          "protocol version " + version + " is not supported (this side speaks "
              + PROTOCOL_VERSION + ")");
    }
    int bodyLength = (int) length - VERSION_BYTES;
    byte[] body = in.readNBytes(bodyLength);
    if (body.length < bodyLength) {
      throw truncated("body", body.length, bodyLength);
    }
    try {
      return Envelope.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new ProtocolException(SlurmError.INVALID_MESSAGE,
          "frame body is not a valid envelope: " + e.getMessage(), e);
    }
  }

  /** Reads the bytes {@code from..size-1} of a big-endian unsigned field. */
  private static long readUnsigned(InputStream in, int from, int size, String field)
      throws IOException, ProtocolException {
    long value = 0;
    for (int i = from; i < size; i++) {
      int b = in.read();
      if (b < 0) {
        throw truncated(field, i, size);
      }
      value = (value << 8) | b;
    }
    return value;
  }

  private static ProtocolException truncated(String part, int got, int wanted) {
    return new ProtocolException(SlurmError.INVALID_MESSAGE,
        "truncated frame: connection ended after " + got + " of " + wanted + " bytes of the "
            + part, new EOFException());
  }
}

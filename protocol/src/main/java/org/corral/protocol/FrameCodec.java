package org.corral.protocol;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.function.IntUnaryOperator;
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
  /** Field 1 (type) as a varint: its tag, then at most five bytes of a uint32. */
  private static final byte TYPE_TAG = 0x08;
  private static final int TYPE_PREFIX_BYTES = 6;

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
    return read(in, maxFrameBytes, type -> maxFrameBytes);
  }

  /**
   * Reads one frame whose length field is at most what {@code limitForType} allows for the
   * envelope's type. The type is read from the first bytes of the envelope (a serializer writes
   * field 1 first; an envelope that does not start with it is held to type 0's limit) and the
   * length checked against its limit before the rest is read; a type that changes further on
   * is refused, so no frame is read beyond the limit of the type it is handled as. A length
   * above {@code ceiling} (the largest of those limits) is refused before anything else is read.
   */
  public static Envelope read(InputStream in, int ceiling, IntUnaryOperator limitForType)
      throws IOException, ProtocolException {
    int first = in.read();
    if (first < 0) {
      return null;
    }
    long length = ((long) first << 24) | readUnsigned(in, 1, 4, "length");
    if (length > ceiling) {
      throw ProtocolException.tooLarge(0, length, ceiling);
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
    byte[] prefix = readTypePrefix(in, bodyLength);
    int limit = limitForType.applyAsInt(leadingType(prefix));
    if (length > limit) {
      throw ProtocolException.tooLarge(leadingType(prefix), length, limit);
    }
    byte[] body = new byte[bodyLength];
    System.arraycopy(prefix, 0, body, 0, prefix.length);
    int got = prefix.length + in.readNBytes(body, prefix.length, bodyLength - prefix.length);
    if (got < bodyLength) {
      throw truncated("body", got, bodyLength);
    }
    Envelope envelope;
    try {
      envelope = Envelope.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new ProtocolException(SlurmError.INVALID_MESSAGE,
          "frame body is not a valid envelope: " + e.getMessage(), e);
    }
    int type = envelope.getType();
    if (type != leadingType(prefix) && limitForType.applyAsInt(type) < length) {
      throw new ProtocolException(SlurmError.INVALID_MESSAGE, "envelope of type "
          + envelope.getType() + " does not begin with its type (read as " + type + ")");
    }
    return envelope;
  }

  /**
   * The envelope's first bytes, as far as its type when it leads (tag, then the varint a byte at
   * a time: a sender may stop after it and wait for our answer), else its first byte.
   */
  private static byte[] readTypePrefix(InputStream in, int bodyLength)
      throws IOException, ProtocolException {
    byte[] prefix = new byte[Math.min(bodyLength, TYPE_PREFIX_BYTES)];
    int got = 0;
    int b = 0;
    while (got < prefix.length && (got == 0 || (got == 1 ? prefix[0] == TYPE_TAG : (b & 0x80) != 0))) {
      b = in.read();
      if (b < 0) {
        throw truncated("body", got, bodyLength);
      }
      prefix[got++] = (byte) b;
    }
    return java.util.Arrays.copyOf(prefix, got);
  }

  /** The envelope's type when it leads the body as field 1 (tag 0x08, a varint), else 0. */
  static int leadingType(byte[] prefix) {
    if (prefix.length < 2 || prefix[0] != TYPE_TAG) {
      return 0;
    }
    long value = 0;
    for (int i = 1; i < prefix.length; i++) {
      value |= (long) (prefix[i] & 0x7f) << (7 * (i - 1));
      if ((prefix[i] & 0x80) == 0) {
        return value > Integer.MAX_VALUE ? 0 : (int) value;
      }
    }
    return 0;
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

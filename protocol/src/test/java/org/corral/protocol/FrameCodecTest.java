package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Envelope;
import org.junit.jupiter.api.Test;

class FrameCodecTest {
  private static final Envelope SAMPLE =
      Envelope.newBuilder().setType(16).setBody(ByteString.copyFromUtf8("hello")).build();

  @Test
  void writesLengthVersionAndEnvelope() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FrameCodec.write(out, SAMPLE);
    ByteBuffer frame = ByteBuffer.wrap(out.toByteArray());
    byte[] body = SAMPLE.toByteArray();
    assertThat(frame.getInt()).isEqualTo(2 + body.length);
    assertThat(frame.getShort()).isEqualTo((short) FrameCodec.PROTOCOL_VERSION);
    assertThat(frame.remaining()).isEqualTo(body.length);
  }

  @Test
  void readsBackWhatWasWrittenAndThenReportsCleanEnd() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FrameCodec.write(out, SAMPLE);
    FrameCodec.write(out, Envelope.getDefaultInstance());
    InputStream in = new ByteArrayInputStream(out.toByteArray());
    assertThat(FrameCodec.read(in, 1024)).isEqualTo(SAMPLE);
    assertThat(FrameCodec.read(in, 1024)).isEqualTo(Envelope.getDefaultInstance());
    assertThat(FrameCodec.read(in, 1024)).isNull();
  }

  @Test
  void refusesOversizedFrameWithoutReadingItsBody() {
    CountingInput in = new CountingInput(header(Integer.MAX_VALUE, 1), 1 << 20);
    assertThatThrownBy(() -> FrameCodec.read(in, 4096))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("exceeds the limit of 4096")
        .extracting(e -> ((ProtocolException) e).error())
        .isEqualTo(SlurmError.MESSAGE_TOO_LARGE);
    assertThat(in.consumed).isEqualTo(4);
  }

  @Test
  void lengthAboveTwoGigabytesIsTooLargeNotNegative() {
    byte[] frame = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 1};
    assertError(frame, 1 << 20, SlurmError.MESSAGE_TOO_LARGE);
  }

  @Test
  void refusesOtherProtocolVersion() {
    byte[] frame = ByteBuffer.allocate(8).putInt(4).putShort((short) 2).putShort((short) 0)
        .array();
    assertError(frame, 1024, SlurmError.PROTOCOL_VERSION_ERROR);
  }

  @Test
  void refusesTruncatedFrames() {
    byte[] full = frameOf(SAMPLE);
    for (int cut : new int[] {1, 3, 5, full.length - 1}) {
      byte[] part = java.util.Arrays.copyOf(full, cut);
      assertThatThrownBy(() -> FrameCodec.read(new ByteArrayInputStream(part), 1024))
          .as("frame cut after %d bytes", cut)
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("truncated");
    }
  }

  @Test
  void refusesLengthTooShortForVersion() {
    assertError(new byte[] {0, 0, 0, 1, 0}, 1024, SlurmError.INVALID_MESSAGE);
  }

  @Test
  void refusesBodyThatIsNotAnEnvelope() {
    byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
    byte[] frame = ByteBuffer.allocate(6 + garbage.length).putInt(2 + garbage.length)
        .putShort((short) 1).put(garbage).array();
    assertError(frame, 1024, SlurmError.INVALID_MESSAGE);
  }

  /** Whatever arrives, reading ends in an envelope, a clean end, or a ProtocolException. */
  @Property(tries = 500)
  void arbitraryBytesNeverEscapeAsAnythingButProtocolErrors(@ForAll byte[] bytes) {
    InputStream in = new ByteArrayInputStream(bytes);
    try {
      while (FrameCodec.read(in, 1 << 16) != null) {
        // keep reading frames until the input is used up or refused
      }
    } catch (ProtocolException expected) {
      assertThat(expected.error()).isNotEqualTo(SlurmError.SUCCESS);
    } catch (IOException e) {
      throw new AssertionError("in-memory input cannot fail with I/O", e);
    }
  }

  private static void assertError(byte[] frame, int max, SlurmError error) {
    assertThatThrownBy(() -> FrameCodec.read(new ByteArrayInputStream(frame), max))
        .isInstanceOf(ProtocolException.class)
        .extracting(e -> ((ProtocolException) e).error())
        .isEqualTo(error);
  }

  static byte[] frameOf(Envelope e) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      FrameCodec.write(out, e);
    } catch (IOException impossible) {
      throw new AssertionError(impossible);
    }
    return out.toByteArray();
  }

  static byte[] header(int length, int version) {
    return ByteBuffer.allocate(6).putInt(length).putShort((short) version).array();
  }

  /** The given prefix followed by endless zeros, counting what is consumed. */
  private static final class CountingInput extends InputStream {
    private final byte[] prefix;
    private final long limit;
    long consumed;

    CountingInput(byte[] prefix, long limit) {
      this.prefix = prefix;
      this.limit = limit;
    }

    @Override
    public int read() {
      if (consumed >= limit) {
        return -1;
      }
      int b = consumed < prefix.length ? prefix[(int) consumed] & 0xff : 0;
      consumed++;
      return b;
    }
  }
}

package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.corral.common.SlurmError;
import org.corral.protocol.ServerFixture.Transport;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Malformed input on either listener is answered with an error and costs only its connection. */
@Timeout(10)
class RpcServerFramingTest {
  private static final int MAX_FRAME = 4096;

  @TempDir Path dir;
  private ServerFixture fixture;

  @BeforeEach
  void start() throws Exception {
    fixture = new ServerFixture(dir, c -> c.withMaxFrameBytes(MAX_FRAME));
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void oversizedFrameIsRefusedBeforeItsBodyIsRead(Transport transport) throws Exception {
    byte[] frame = ByteBuffer.allocate(6 + 1000).putInt(MAX_FRAME + 1).putShort((short) 1)
        .array();
    assertRefused(transport, frame, SlurmError.MESSAGE_TOO_LARGE, "exceeds the limit");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void realOversizedRequestGetsItsErrorNotAReset(Transport transport) throws Exception {
    byte[] hugeBody = new byte[MAX_FRAME * 8];
    Envelope big = envelopeFor(transport, ServerFixture.PING).toBuilder()
        .setBody(ByteString.copyFrom(hugeBody)).build();
    assertRefused(transport, FrameCodecTest.frameOf(big), SlurmError.MESSAGE_TOO_LARGE,
        "exceeds the limit");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void randomBytesAreRefused(Transport transport) throws Exception {
    byte[] noise = new byte[256];
    new Random(42).nextBytes(noise);
    try (RawConnection c = fixture.raw(transport)) {
      Response reply = c.send(noise).receiveResponse();
      assertThat(reply.getErrorCode()).isIn(SlurmError.MESSAGE_TOO_LARGE.code(),
          SlurmError.PROTOCOL_VERSION_ERROR.code(), SlurmError.INVALID_MESSAGE.code());
      assertThat(c.closedByServer()).isTrue();
    }
    fixture.assertStillServes();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void wrongProtocolVersionIsRefused(Transport transport) throws Exception {
    byte[] valid = FrameCodecTest.frameOf(envelopeFor(transport, ServerFixture.PING));
    valid[5] = 9;
    assertRefused(transport, valid, SlurmError.PROTOCOL_VERSION_ERROR, "version 9");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void truncatedFrameIsRefused(Transport transport) throws Exception {
    byte[] valid = FrameCodecTest.frameOf(envelopeFor(transport, ServerFixture.PING));
    byte[] cut = java.util.Arrays.copyOf(valid, valid.length - 3);
    try (RawConnection c = fixture.raw(transport)) {
      Response reply = c.send(cut).endOutput().receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.INVALID_MESSAGE.code());
      assertThat(reply.getErrorMessage()).contains("truncated");
    }
    fixture.assertStillServes();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void bodyThatIsNotAnEnvelopeIsRefused(Transport transport) throws Exception {
    byte[] frame = ByteBuffer.allocate(9).putInt(5).putShort((short) 1)
        .put(new byte[] {(byte) 0x0a, (byte) 0xff, (byte) 0xff}).array();
    assertRefused(transport, frame, SlurmError.INVALID_MESSAGE, "not a valid envelope");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void envelopeWhoseBodyIsNotARequestIsRefused(Transport transport) throws Exception {
    ByteString junk = ByteString.copyFrom(new byte[] {(byte) 0x82, (byte) 0x01});
    Envelope e = transport == Transport.TCP ? fixture.nodeCredentials.seal("slurmctld", 16, junk.toByteArray())
        : Envelope.newBuilder().setType(16).setBody(junk).build();
    assertRefused(transport, FrameCodecTest.frameOf(e), SlurmError.INVALID_MESSAGE,
        "does not parse");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void typeThatDoesNotMatchTheBodyIsRefused(Transport transport) throws Exception {
    byte[] ping = ServerFixture.PING.toByteArray();
    Envelope e = transport == Transport.TCP ? fixture.nodeCredentials.seal("slurmctld", 17, ping)
        : Envelope.newBuilder().setType(17).setBody(ByteString.copyFrom(ping)).build();
    assertRefused(transport, FrameCodecTest.frameOf(e), SlurmError.INVALID_MESSAGE,
        "type 17 does not match");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void requestWithoutBodyIsRefused(Transport transport) throws Exception {
    Envelope e = transport == Transport.TCP ? fixture.nodeCredentials.seal("slurmctld", 0, new byte[0])
        : Envelope.getDefaultInstance();
    assertRefused(transport, FrameCodecTest.frameOf(e), SlurmError.INVALID_MESSAGE,
        "does not match its body");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void handlerFailureBecomesAnErrorAndTheConnectionGoesOn(Transport transport) throws Exception {
    Request config = Request.newBuilder()
        .setConfig(org.corral.protocol.msg.ConfigRequest.getDefaultInstance()).build();
    try (RawConnection c = fixture.raw(transport)) {
      Response failed = c.send(envelopeFor(transport, config)).receiveResponse();
      assertThat(failed.getErrorCode()).isEqualTo(SlurmError.UNEXPECTED.code());
      assertThat(failed.getErrorMessage()).doesNotContain("handler bug");
      Response next = c.send(envelopeFor(transport, ServerFixture.PING)).receiveResponse();
      assertThat(next.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void oneConnectionCarriesManyRequests(Transport transport) throws Exception {
    try (RawConnection c = fixture.raw(transport)) {
      for (int i = 0; i < 5; i++) {
        assertThat(c.send(envelopeFor(transport, ServerFixture.PING)).receiveResponse()
            .getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      }
    }
  }

  private Envelope envelopeFor(Transport transport, Request request) {
    return transport == Transport.TCP
        ? fixture.nodeCredentials.seal("slurmctld", request.getBodyCase().getNumber(), request.toByteArray())
        : RpcCall.plainEnvelope(request);
  }

  private void assertRefused(Transport transport, byte[] bytes, SlurmError error, String why)
      throws Exception {
    try (RawConnection c = fixture.raw(transport)) {
      Response reply = c.send(bytes).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(error.code());
      assertThat(reply.getErrorMessage()).contains(why);
      assertThat(c.closedByServer()).as("connection closed after the refusal").isTrue();
    }
    fixture.assertStillServes();
  }
}

package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.corral.common.SlurmError;
import org.corral.protocol.ServerFixture.Transport;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TCP client that has not proved it holds the cluster key cannot make the server read more
 * than a small frame; one that has (a signed hello) may send up to the server's limit.
 */
@Timeout(10)
class RpcServerFrameLimitsTest {
  private static final int UNAUTHENTICATED = 8 * 1024;

  @TempDir Path dir;
  private ServerFixture fixture;

  @BeforeEach
  void start() throws Exception {
    fixture = new ServerFixture(dir, c -> c.withMaxFrameBytes(4 << 20)
        .withFrames(new FrameLimits(UNAUTHENTICATED, 1 << 20, java.util.Map.of())));
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void unauthenticatedTcpFrameOverTheSmallLimitIsRefusedFromItsHeader() throws Exception {
    // Only the header and the envelope's type: the server must refuse before the rest arrives.
    byte[] header = ByteBuffer.allocate(8).putInt(3 << 20).putShort((short) 1)
        .put((byte) 0x08).put((byte) 16).array();
    try (RawConnection c = fixture.raw(Transport.TCP)) {
      Response reply = c.send(header).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.MESSAGE_TOO_LARGE.code());
      assertThat(reply.getErrorMessage()).contains("limit of " + UNAUTHENTICATED);
      assertThat(c.closedByServer()).isTrue();
    }
    fixture.assertStillServes();
  }

  @Test
  void signedRequestAboveTheSmallLimitWithoutHelloIsRefused() throws Exception {
    try (RawConnection c = fixture.raw(Transport.TCP)) {
      Response reply = c.send(bigPing()).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.MESSAGE_TOO_LARGE.code());
    }
  }

  @Test
  void afterAValidHelloLargeFramesAreRead() throws Exception {
    try (RawConnection c = fixture.raw(Transport.TCP)) {
      c.send(Hello.sealed(fixture.nodeCredentials, "slurmctld"));
      Response reply = c.send(bigPing()).receiveResponse();
      assertThat(reply.getErrorCode()).isZero();
      assertThat(reply.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
    }
  }

  @Test
  void theChannelGreetsEveryNewConnectionSoItsLargeRequestsGoThrough() throws Exception {
    Request big = bigPingRequest();
    Response reply = fixture.tcpChannel().call(big);
    assertThat(reply.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
  }

  @Test
  void forgedHelloIsRefusedAndEndsTheConnection() throws Exception {
    Envelope forged = Hello.sealed(new Credentials(ClusterKey.random(), "node1",
        java.time.Clock.systemUTC()), "slurmctld");
    try (RawConnection c = fixture.raw(Transport.TCP)) {
      Response reply = c.send(forged).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
      assertThat(c.closedByServer()).isTrue();
    }
    fixture.assertStillServes();
  }

  @Test
  void replayedHelloIsRefused() throws Exception {
    Envelope hello = Hello.sealed(fixture.nodeCredentials, "slurmctld");
    try (RawConnection c = fixture.raw(Transport.TCP)) {
      c.send(hello).send(FrameCodecTest.frameOf(sealed(ServerFixture.PING))).receiveResponse();
    }
    try (RawConnection c = fixture.raw(Transport.TCP)) {
      Response reply = c.send(hello).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
      assertThat(reply.getErrorMessage()).contains("replayed");
    }
  }

  @Test
  void anEnvelopeThatChangesItsTypeAfterTheLimitWasChosenIsRefused() throws Exception {
    FrameLimits limits = new FrameLimits(UNAUTHENTICATED, 1024, java.util.Map.of(10, 64 * 1024));
    // type 10 first (64 KiB allowed), then a body, then type 16 (1 KiB allowed) overriding it
    byte[] body = ByteString.copyFrom(new byte[8 * 1024]).toByteArray();
    java.io.ByteArrayOutputStream env = new java.io.ByteArrayOutputStream();
    env.write(new byte[] {0x08, 10});
    env.write(0x12);
    env.write(new byte[] {(byte) 0x80, 0x40}); // 8192 as a varint
    env.write(body);
    env.write(new byte[] {0x08, 16});
    byte[] frame = ByteBuffer.allocate(6 + env.size()).putInt(2 + env.size()).putShort((short) 1)
        .put(env.toByteArray()).array();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> FrameCodec.read(
            new java.io.ByteArrayInputStream(frame), Integer.MAX_VALUE, limits::forUser))
        .isInstanceOf(ProtocolException.class).hasMessageContaining("does not begin with its type");
  }

  /** A ping padded with a 1 MiB field it does not know (kept, and ignored, when parsed). */
  private static Request bigPingRequest() throws java.io.IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.write(ServerFixture.PING.toByteArray());
    CodedOutputStream padding = CodedOutputStream.newInstance(bytes);
    padding.writeByteArray(999, new byte[1 << 20]);
    padding.flush();
    return Request.parseFrom(bytes.toByteArray());
  }

  private byte[] bigPing() throws java.io.IOException {
    return FrameCodecTest.frameOf(sealed(bigPingRequest()));
  }

  private Envelope sealed(Request r) {
    return fixture.nodeCredentials.seal("slurmctld", r.getBodyCase().getNumber(), r.toByteArray());
  }
}

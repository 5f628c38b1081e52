package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.ConfigRequest;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Daemons on TCP must prove themselves with a credential on every request. */
@Timeout(10)
class RpcServerAuthTest {
  @TempDir Path dir;
  private ServerFixture fixture;

  @BeforeEach
  void start() throws Exception {
    fixture = new ServerFixture(dir);
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void signedRoundTripOverTcpIdentifiesTheDaemon() throws Exception {
    Response reply = fixture.tcpChannel().call(ServerFixture.PING);
    assertThat(reply.getErrorCode()).isZero();
    assertThat(reply.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
    assertThat(fixture.handler.lastPeer.get()).isEqualTo(Peer.daemon("node1"));
    assertThat(fixture.handler.lastPeer.get().isDaemon()).isTrue();
  }

  @Test
  void tcpRepliesAreSignedByTheServer() throws Exception {
    try (RawConnection c = fixture.raw(ServerFixture.Transport.TCP)) {
      Envelope request = sealedPing(fixture.nodeCredentials);
      c.send(request);
      Envelope reply = c.receive();
      assertThat(fixture.nodeCredentials.verifyReply(reply,
          request.getCredential().getNonce().toByteArray())).isEqualTo("slurmctld");
    }
  }

  @Test
  void refusesTheServersOwnSignedReplySentBackAsARequest() throws Exception {
    Envelope reply;
    try (RawConnection c = fixture.raw(ServerFixture.Transport.TCP)) {
      reply = c.send(sealedPing(fixture.nodeCredentials)).receive();
    }
    assertThat(reply.getType()).as("a ping reply has the ping request's type").isEqualTo(16);
    fixture.handler.lastPeer.set(null);
    assertRefused(reply, "MAC does not match");
  }

  @Test
  void refusesRequestWithoutCredential() throws Exception {
    Envelope bare = RpcCall.plainEnvelope(ServerFixture.PING);
    assertRefused(bare, "no credential");
  }

  @Test
  void refusesCredentialMadeWithAnotherKey() throws Exception {
    Credentials forger = new Credentials(ClusterKey.random(), "node1", Clock.systemUTC());
    assertRefused(sealedPing(forger), "MAC does not match");
  }

  @Test
  void refusesTamperedBody() throws Exception {
    Envelope genuine = sealedPing(fixture.nodeCredentials);
    Request other = Request.newBuilder().setConfig(ConfigRequest.getDefaultInstance()).build();
    Envelope tampered = genuine.toBuilder().setType(17).setBody(other.toByteString()).build();
    assertRefused(tampered, "MAC does not match");
  }

  @Test
  void refusesReplayedEnvelopeOnASecondConnection() throws Exception {
    Envelope once = sealedPing(fixture.nodeCredentials);
    try (RawConnection c = fixture.raw(ServerFixture.Transport.TCP)) {
      assertThat(c.send(once).receiveResponse().getPing().getHost())
          .isEqualTo(RecordingHandler.HOST);
    }
    fixture.handler.lastPeer.set(null);
    assertRefused(once, "replayed");
  }

  @Test
  void refusesExpiredCredential() throws Exception {
    Clock past = Clock.fixed(Instant.now().minus(Duration.ofSeconds(301)), Clock.systemUTC()
        .getZone());
    assertRefused(sealedPing(new Credentials(fixture.key, "node1", past)), "expired");
  }

  @Test
  void refusesCredentialFromTheFuture() throws Exception {
    Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(90));
    assertRefused(sealedPing(new Credentials(fixture.key, "node1", ahead)), "in the future");
  }

  @Test
  void clientRefusesReplyFromServerWithAnotherKeyAndSaysWhy() {
    TcpChannel wrongKey = new TcpChannel("127.0.0.1", fixture.port(), "slurmctld",
        new Credentials(ClusterKey.random(), "node1", Clock.systemUTC()), Duration.ofSeconds(5));
    assertThatThrownBy(() -> wrongKey.call(ServerFixture.PING))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("failed authentication")
        .hasMessageContaining("same cluster key")
        .extracting(e -> ((TransportException) e).error())
        .isEqualTo(SlurmError.AUTH_CRED_INVALID);
  }

  @Test
  void clientRefusesUnsignedReply() throws Exception {
    // A Unix-socket-only server answers unsigned; point a TCP client at a fake that does so.
    try (var fake = java.nio.channels.ServerSocketChannel.open()) {
      fake.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
      int port = ((java.net.InetSocketAddress) fake.getLocalAddress()).getPort();
      Thread server = Thread.ofVirtual().start(() -> {
        try (var ch = fake.accept(); var conn = new FramedConnection(ch)) {
          conn.read(1 << 20);
          conn.write(Envelope.newBuilder().setType(16).setBody(
              Response.newBuilder().setPing(org.corral.protocol.msg.PingReply.getDefaultInstance())
                  .build().toByteString()).build());
        } catch (Exception ignored) {
          // the test asserts on the client's side
        }
      });
      TcpChannel channel = new TcpChannel("127.0.0.1", port, "slurmctld", fixture.nodeCredentials,
          Duration.ofSeconds(5));
      assertThatThrownBy(() -> channel.call(ServerFixture.PING))
          .isInstanceOf(TransportException.class)
          .hasMessageContaining("no credential");
      server.join();
    }
  }

  @Test
  void unixRequestWithValidCredentialComesFromADaemonWithKernelIdentity() throws Exception {
    try (RawConnection c = fixture.raw(ServerFixture.Transport.UNIX)) {
      assertThat(c.send(sealedPing(fixture.nodeCredentials)).receiveResponse().getErrorCode())
          .isZero();
    }
    Peer peer = fixture.handler.lastPeer.get();
    assertThat(peer.daemon()).isEqualTo("node1");
    assertThat(peer.uid()).isEqualTo(currentUid());
  }

  @Test
  void unixRequestWithInvalidCredentialIsRefused() throws Exception {
    Credentials forger = new Credentials(ClusterKey.random(), "node1", Clock.systemUTC());
    try (RawConnection c = fixture.raw(ServerFixture.Transport.UNIX)) {
      Response reply = c.send(sealedPing(forger)).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
      assertThat(c.closedByServer()).isTrue();
    }
    fixture.assertStillServes();
  }

  private static Envelope sealedPing(Credentials credentials) {
    return credentials.seal("slurmctld", 16, ServerFixture.PING.toByteArray());
  }

  private void assertRefused(Envelope envelope, String why) throws Exception {
    try (RawConnection c = fixture.raw(ServerFixture.Transport.TCP)) {
      Response reply = c.send(envelope).receiveResponse();
      assertThat(reply.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
      assertThat(reply.getErrorMessage()).contains(why);
      assertThat(c.closedByServer()).as("connection closed after the refusal").isTrue();
    }
    assertThat(fixture.handler.lastPeer.get()).as("the handler never saw it").isNull();
    fixture.assertStillServes();
  }

  static int currentUid() throws java.io.IOException {
    return (Integer) java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }
}

package org.corral.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.corral.common.SlurmError;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.FrameLimits;
import org.corral.protocol.Peer;
import org.corral.protocol.Responses;
import org.corral.protocol.RpcServer;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.TransportException;
import org.corral.protocol.UserChannel;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.ConfigRequest;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Users of other hosts reach a server over TCP with MUNGE credentials bound to each message. */
@Timeout(30)
class RpcServerMungeTest {
  private static final Request PING =
      Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build();
  private static final int PING_TYPE = Request.BodyCase.PING.getNumber();

  @TempDir Path dir;
  private MungedFixture munged;
  private RpcServer server;
  private final AtomicReference<Peer> lastPeer = new AtomicReference<>();

  @BeforeEach
  void start() throws Exception {
    munged = new MungedFixture(dir);
    server = RpcServer.start(RpcServerConfig.tcp("127.0.0.1", 0),
        new Credentials(ClusterKey.random(), "slurmctld", Clock.systemUTC()), auth(300),
        (peer, request) -> {
          lastPeer.set(peer);
          return request.hasPing()
              ? Response.newBuilder().setPing(PingReply.newBuilder().setHost("ctl")).build()
              : Responses.error(SlurmError.INVALID_MESSAGE, "not served here");
        });
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    munged.close();
  }

  private MungeAuth auth(int ttlS) {
    return new MungeAuth(munged.program(), UserDirectory.system(), Clock.systemUTC(),
        Duration.ofSeconds(ttlS), "slurmctld");
  }

  private UserChannel channel(MungeAuth auth) {
    return new UserChannel("127.0.0.1", server.tcpPort(), "slurmctld", auth.client(uid -> uid == 0),
        Duration.ofSeconds(10));
  }

  private Response sendRaw(Envelope e) throws TransportException {
    Envelope reply = channel(auth(300)).send("test", e);
    try {
      return Response.parseFrom(reply.getBody());
    } catch (com.google.protobuf.InvalidProtocolBufferException ex) {
      throw new AssertionError(ex);
    }
  }

  private void assertRefused(Envelope e, String why) throws Exception {
    Response r = sendRaw(e);
    assertThat(r.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
    assertThat(r.getErrorMessage()).contains(why);
    assertStillServes();
  }

  private void assertStillServes() throws Exception {
    assertThat(channel(auth(300)).call(PING).getPing().getHost()).isEqualTo("ctl");
  }

  @Test
  void aUsersCredentialNamesTheUserAndTheReplyIsVerified() throws Exception {
    Response reply = channel(auth(300)).call(PING);
    assertThat(reply.getPing().getHost()).isEqualTo("ctl");
    Peer peer = lastPeer.get();
    assertThat(peer.uid()).isEqualTo(0);
    assertThat(peer.userName()).isEqualTo("root");
    assertThat(peer.isDaemon()).isFalse();
  }

  @Test
  void aRequestOverTheUnauthenticatedLimitGoesThroughAfterAMungeHello() throws Exception {
    Request large = Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
        .setSpec(JobSpec.newBuilder().setScript("#!/bin/sh\n" + "#".repeat(200_000) + "\n"))).build();
    assertThat(large.getSerializedSize()).isGreaterThan(FrameLimits.DEFAULT_UNAUTHENTICATED);

    Response reply = channel(auth(300)).call(large);
    assertThat(reply.getErrorMessage()).isEqualTo("not served here"); // the handler read it
    assertThat(lastPeer.get().userName()).isEqualTo("root");

    // Without the hello the same request is more than an unproven connection may send.
    lastPeer.set(null);
    Envelope alone = auth(300).seal("slurmctld", Request.BodyCase.SUBMIT_JOB.getNumber(),
        large.toByteArray()).envelope();
    assertThat(sendRaw(alone).getErrorCode()).isNotZero();
    assertThat(lastPeer.get()).isNull();
    assertStillServes();
  }

  @Test
  void aReplySealedByAnUntrustedUidIsRefused() {
    UserChannel trustingNobody = new UserChannel("127.0.0.1", server.tcpPort(), "slurmctld",
        auth(300).client(uid -> false), Duration.ofSeconds(10));
    assertThatThrownBy(() -> trustingNobody.call(PING)).isInstanceOf(TransportException.class)
        .hasMessageContaining("neither root nor SlurmUser");
  }

  @Test
  void aForgedCredentialIsRefused() throws Exception {
    Envelope forged = Envelope.newBuilder().setType(PING_TYPE).setBody(PING.toByteString())
        .setMunge("MUNGE:AwQFAAAWv6XO29HDb7g0ycCjvK9wuRtSXWEuqfxR6PHQfpH+ZKdY5owFitXm8cwm15wGq:")
        .build();
    assertRefused(forged, "authentication failed");
  }

  @Test
  void aReplayedCredentialIsRefused() throws Exception {
    Envelope sealed = auth(300).seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    assertThat(sendRaw(sealed).getErrorCode()).isZero();
    assertRefused(sealed, "replayed");
  }

  @Test
  void aCredentialMovedToAnotherMessageIsRefused() throws Exception {
    Envelope sealed = auth(300).seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    Request other = Request.newBuilder().setConfig(ConfigRequest.getDefaultInstance()).build();
    Envelope rebound = sealed.toBuilder().setType(other.getBodyCase().getNumber())
        .setBody(other.toByteString()).build();
    assertRefused(rebound, "made for another message");
  }

  @Test
  void aCredentialMadeForAnotherDaemonIsRefused() throws Exception {
    Envelope forDbd = auth(300).seal("slurmdbd", PING_TYPE, PING.toByteArray()).envelope();
    assertRefused(forDbd, "another message or receiver than slurmctld");
  }

  @Test
  void anExpiredCredentialIsRefused() throws Exception {
    Envelope sealed = auth(1).seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    Thread.sleep(2100); // past MUNGE's TTL of 1 s; no assertion depends on this duration
    assertRefused(sealed, "expired");
  }

  @Test
  void aCredentialMadeWithAnotherMungeKeyIsRefused() throws Exception {
    try (MungedFixture other = new MungedFixture(Files.createDirectories(dir.resolve("other")))) {
      MungeAuth foreign = new MungeAuth(other.program(), UserDirectory.system(),
          Clock.systemUTC(), Duration.ofSeconds(300), null);
      assertRefused(foreign.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope(), "invalid");
    }
  }

  @Test
  void aPlainTcpRequestWithoutAnyCredentialIsRefused() throws Exception {
    Envelope plain = Envelope.newBuilder().setType(PING_TYPE).setBody(PING.toByteString()).build();
    assertRefused(plain, "no credential");
  }

  @Test
  void aBindingIsOnlyValidForItsOwnMessage() {
    byte[] nonce = new byte[MessageBinding.NONCE_BYTES];
    MessageBinding b = MessageBinding.of(MessageBinding.REQUEST, "slurmctld", 7,
        new byte[] {1, 2}, 1000L, nonce, null);
    MessageBinding parsed = MessageBinding.parse(b.print()).orElseThrow();
    assertThat(parsed.binds("slurmctld", 7, new byte[] {1, 2}, null)).isTrue();
    assertThat(parsed.binds("slurmctld", 8, new byte[] {1, 2}, null)).isFalse();
    assertThat(parsed.binds("slurmctld", 7, new byte[] {1, 3}, null)).isFalse();
    assertThat(parsed.binds("slurmctld", 7, new byte[] {1, 2}, new byte[16])).isFalse();
    assertThat(parsed.binds("slurmdbd", 7, new byte[] {1, 2}, null)).isFalse();
    assertThat(MessageBinding.parse("corral2:q:12:zz:00")).isEmpty();
    assertThat(MessageBinding.parse("hello")).isEmpty();
    assertThat(ByteString.copyFrom(parsed.nonce())).isEqualTo(ByteString.copyFrom(nonce));
  }
}

package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.corral.protocol.msg.Envelope;
import org.junit.jupiter.api.Test;

class CredentialsTest {
  private final ClusterKey key = ClusterKey.random();
  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
  private final Credentials node = new Credentials(key, "node1", clock);
  private final Credentials ctld = new Credentials(key, "slurmctld", clock);
  private final byte[] body = "a request".getBytes(StandardCharsets.UTF_8);

  @Test
  void sealedEnvelopeVerifiesAndNamesItsSender() throws AuthException {
    Envelope e = node.seal("slurmctld", 16, body);
    assertThat(e.getType()).isEqualTo(16);
    assertThat(e.getBody().toByteArray()).isEqualTo(body);
    assertThat(e.getCredential().getNonce().size()).isEqualTo(Credentials.NONCE_BYTES);
    assertThat(e.getCredential().getTimestampMs()).isEqualTo(clock.millis());
    assertThat(ctld.verify(e)).isEqualTo("node1");
  }

  @Test
  void repliesAndRequestsAreSignedApart() throws AuthException {
    byte[] requestNonce = new byte[Credentials.NONCE_BYTES];
    Envelope reply = ctld.sealReply("node1", requestNonce, 16, body);
    assertRefused(reply, "MAC does not match");
    assertThat(node.verifyReply(reply, requestNonce)).isEqualTo("slurmctld");
    Envelope request = node.seal("slurmctld", 16, body);
    assertThatThrownBy(() -> ctld.verifyReply(request, new byte[0]))
        .isInstanceOf(AuthException.class);
  }

  @Test
  void aMessageSignedForAnotherDaemonIsRefused() {
    assertRefused(node.seal("slurmdbd", 16, body), "was signed for slurmdbd, not slurmctld");
    assertRefused(node.seal("node2", 16, body), "was signed for node2, not slurmctld");
  }

  @Test
  void aReplyIsBoundToTheRequestItAnswers() throws AuthException {
    Envelope request = node.seal("slurmctld", 16, body);
    byte[] nonce = request.getCredential().getNonce().toByteArray();
    Envelope reply = ctld.sealReply("node1", nonce, 16, body);
    assertThatThrownBy(() -> node.verifyReply(reply, new byte[Credentials.NONCE_BYTES]))
        .hasMessageContaining("answers another request");
    assertThat(node.verifyReply(ctld.sealReply("node1", nonce, 16, body), nonce))
        .isEqualTo("slurmctld");
    assertThatThrownBy(() -> new Credentials(key, "node2", clock)
        .verifyReply(ctld.sealReply("node1", nonce, 16, body), nonce))
        .hasMessageContaining("signed for node1, not node2");
  }

  @Test
  void everySealGetsAFreshNonce() {
    assertThat(node.seal("slurmctld", 16, body).getCredential().getNonce())
        .isNotEqualTo(node.seal("slurmctld", 16, body).getCredential().getNonce());
  }

  @Test
  void refusesMissingCredential() {
    Envelope bare = Envelope.newBuilder().setType(16).setBody(ByteString.copyFrom(body)).build();
    assertRefused(bare, "no credential");
  }

  @Test
  void refusesCredentialSignedWithAnotherKey() {
    Credentials forger = new Credentials(ClusterKey.random(), "node1", clock);
    assertRefused(forger.seal("slurmctld", 16, body), "MAC does not match");
  }

  @Test
  void refusesTamperedBodyTypeAndSender() {
    Envelope e = node.seal("slurmctld", 16, body);
    assertRefused(e.toBuilder().setBody(ByteString.copyFromUtf8("another request")).build(),
        "MAC does not match");
    assertRefused(e.toBuilder().setType(30).build(), "MAC does not match");
    assertRefused(e.toBuilder().setCredential(e.getCredential().toBuilder().setSender("slurmctld"))
        .build(), "MAC does not match");
    assertRefused(e.toBuilder().setCredential(e.getCredential().toBuilder()
        .setTimestampMs(e.getCredential().getTimestampMs() + 1)).build(), "MAC does not match");
    assertRefused(e.toBuilder().setCredential(e.getCredential().toBuilder().setReceiver("node2"))
        .build(), "MAC does not match");
  }

  @Test
  void refusesMalformedCredential() {
    Envelope e = node.seal("slurmctld", 16, body);
    assertRefused(e.toBuilder().setCredential(e.getCredential().toBuilder()
        .setNonce(ByteString.copyFrom(new byte[3]))).build(), "malformed");
    assertRefused(e.toBuilder().setCredential(e.getCredential().toBuilder()
        .setMac(ByteString.EMPTY)).build(), "malformed");
  }

  @Test
  void refusesReplayedCredential() throws AuthException {
    Envelope e = node.seal("slurmctld", 16, body);
    ctld.verify(e);
    assertRefused(e, "replayed");
  }

  @Test
  void refusesExpiredCredential() throws AuthException {
    Envelope e = node.seal("slurmctld", 16, body);
    clock.advance(Credentials.DEFAULT_TTL.plusMillis(1));
    assertRefused(e, "expired");
    Envelope fresh = node.seal("slurmctld", 16, body);
    clock.advance(Credentials.DEFAULT_TTL);
    assertThat(ctld.verify(fresh)).isEqualTo("node1");
  }

  @Test
  void refusesCredentialFromTheFutureBeyondTheSkew() throws AuthException {
    MutableClock ahead = new MutableClock(clock.instant().plus(Duration.ofSeconds(61)));
    assertRefused(new Credentials(key, "node1", ahead).seal("slurmctld", 16, body), "in the future");
    ahead.advance(Duration.ofSeconds(-2));
    assertThat(ctld.verify(new Credentials(key, "node1", ahead).seal("slurmctld", 16, body)))
        .isEqualTo("node1");
  }

  @Test
  void forgetsNoncesOnlyOnceTheirCredentialHasExpired() throws AuthException {
    Envelope e = node.seal("slurmctld", 16, body);
    ctld.verify(e);
    clock.advance(Credentials.DEFAULT_TTL);
    assertRefused(e, "replayed");
    clock.advance(Duration.ofMillis(1));
    assertRefused(e, "expired");
  }

  /** A launch order captured before a node daemon restarted is refused by the new daemon. */
  @Test
  void refusesAMessageSignedBeforeTheReceiverStarted() throws AuthException {
    Envelope captured = ctld.seal("node1", 50, body);
    clock.advance(Duration.ofSeconds(5));
    Credentials restartedNode = new Credentials(key, "node1", clock);
    assertThatThrownBy(() -> restartedNode.verify(captured)).isInstanceOf(AuthException.class)
        .hasMessageContaining("before this daemon started");
    assertThat(restartedNode.verify(ctld.seal("node1", 50, body))).isEqualTo("slurmctld");
  }

  private void assertRefused(Envelope e, String why) {
    assertThatThrownBy(() -> ctld.verify(e)).isInstanceOf(AuthException.class)
        .hasMessageContaining(why);
  }
}

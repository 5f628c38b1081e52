package org.corral.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.corral.protocol.AuthException;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.SackCredential;
import org.corral.protocol.msg.SackMint;
import org.corral.protocol.msg.SackReply;
import org.corral.protocol.msg.SackRequest;
import org.corral.protocol.msg.SackVerify;
import org.corral.protocol.MutableClock;
import org.junit.jupiter.api.Test;

/** The auth/slurm credential format: what is accepted, and each way a credential is refused. */
class SackCredentialsTest {
  private static final byte[] BODY = "a request".getBytes(StandardCharsets.UTF_8);
  private static final byte[] DIGEST = SackCredentials.sha256(BODY);
  private static final Peer ALICE = new Peer(1001, 1001, "alice", null);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final SackKeys keys = SackKeys.of(ClusterKey.random());
  /** The login host's sackd and the controller: separate processes with the same key. */
  private final SackKiosk login = new SackKiosk(new SackCredentials(keys, clock, ttl()), "login1");
  private final SackCredentials ctld = new SackCredentials(keys, clock, ttl());

  private static Duration ttl() {
    return Duration.ofSeconds(60);
  }

  private SackCredential mint(String receiver, int type, byte[] digest) {
    SackReply r = login.answer(ALICE, SackRequest.newBuilder().setMint(SackMint.newBuilder()
        .setReceiver(receiver).setType(type).setBodySha256(ByteString.copyFrom(digest))).build());
    assertThat(r.getError()).isEmpty();
    return r.getCredential();
  }

  private void accept(SackCredential c) throws AuthException {
    ctld.check(c, false, "slurmctld", 16, DIGEST, null);
  }

  private void assertRefused(SackCredential c, String why) {
    assertThatThrownBy(() -> accept(c)).isInstanceOf(AuthException.class)
        .hasMessageContaining(why);
  }

  @Test
  void aMintedCredentialNamesTheCallerAndIsAcceptedOnce() throws AuthException {
    SackCredential c = mint("slurmctld", 16, DIGEST);
    assertThat(c.getUid()).isEqualTo(1001);
    assertThat(c.getIssuer()).isEqualTo("login1");
    assertThat(c.getReceiver()).isEqualTo("slurmctld");
    accept(c);
    assertRefused(c, "replayed");
  }

  @Test
  void aForgedCredentialIsRefused() {
    SackCredential c = mint("slurmctld", 16, DIGEST);
    assertRefused(c.toBuilder().setUid(0).build(), "MAC does not match");
    assertRefused(c.toBuilder().setIssuer("ctl").build(), "MAC does not match");
    SackCredentials otherKey = new SackCredentials(SackKeys.of(ClusterKey.random()), clock, ttl());
    assertRefused(otherKey.make(new SackCredentials.Claims(false, 0, 0, "login1", "slurmctld",
        null), 16, DIGEST), "MAC does not match");
    assertRefused(c.toBuilder().setMac(ByteString.copyFrom(new byte[5])).build(), "malformed");
  }

  @Test
  void aCredentialMovedToAnotherMessageIsRefused() {
    assertThatThrownBy(() -> ctld.check(mint("slurmctld", 16, DIGEST), false, "slurmctld", 16,
        SackCredentials.sha256("another body".getBytes(StandardCharsets.UTF_8)), null))
        .hasMessageContaining("MAC does not match");
    assertThatThrownBy(() -> ctld.check(mint("slurmctld", 16, DIGEST), false, "slurmctld", 17,
        DIGEST, null)).hasMessageContaining("MAC does not match");
  }

  @Test
  void aCredentialMadeForAnotherReceiverIsRefused() {
    assertRefused(mint("slurmdbd", 16, DIGEST), "made for slurmdbd, not slurmctld");
  }

  @Test
  void anExpiredCredentialIsRefused() {
    SackCredential c = mint("slurmctld", 16, DIGEST);
    clock.advance(Duration.ofSeconds(61));
    assertRefused(c, "expired");
  }

  @Test
  void aCredentialDatedInTheFutureIsRefused() {
    MutableClock ahead = new MutableClock(clock.instant().plusSeconds(120));
    SackCredentials skewed = new SackCredentials(keys, ahead, ttl());
    assertRefused(skewed.make(new SackCredentials.Claims(false, 1001, 1001, "login1",
        "slurmctld", null), 16, DIGEST), "in the future");
  }

  @Test
  void aCredentialMadeBeforeTheReceiverStartedIsRefused() {
    SackCredential c = mint("slurmctld", 16, DIGEST);
    clock.advance(Duration.ofSeconds(1));
    SackCredentials restarted = new SackCredentials(keys, clock, ttl());
    assertThatThrownBy(() -> restarted.check(c, false, "slurmctld", 16, DIGEST, null))
        .hasMessageContaining("before this daemon started");
  }

  @Test
  void usersGetCredentialsForTheControllerAndSlurmdbdOnly() {
    SackReply r = login.answer(ALICE, SackRequest.newBuilder().setMint(SackMint.newBuilder()
        .setReceiver("node1").setType(16).setBodySha256(ByteString.copyFrom(DIGEST))).build());
    assertThat(r.getError()).contains("users send requests to slurmctld and slurmdbd only");
    assertThat(r.hasCredential()).isFalse();
    SackReply noDigest = login.answer(ALICE, SackRequest.newBuilder().setMint(SackMint.newBuilder()
        .setReceiver("slurmctld").setType(16)).build());
    assertThat(noDigest.getError()).contains("SHA-256");
  }

  @Test
  void aReplyIsVerifiedForTheRequestItAnswersAndTheHostThatAsked() {
    SackCredential request = mint("slurmctld", 16, DIGEST);
    SackAuth controller = new SackAuth(ctld, "slurmctld",
        org.corral.protocol.UserDirectory.system(), 0, 0);
    var verified = new org.corral.protocol.UserAuth.Verified(ALICE,
        request.getNonce().toByteArray(), request.getIssuer());
    SackCredential reply = controller.sealReply(16, BODY, verified).getSack();
    assertThat(verify(reply, request.getNonce().toByteArray()).getError()).isEmpty();
    assertThat(verify(reply, request.getNonce().toByteArray()).getError()).contains("replayed");
    SackCredential another = controller.sealReply(16, BODY, verified).getSack();
    assertThat(verify(another, new byte[16]).getError()).contains("answers another request");
    // A request's credential is never a reply's, though the same key signed both.
    assertThat(verify(mint("slurmctld", 16, DIGEST), new byte[0]).getError())
        .contains("not a reply's");
    // A reply for another host's request.
    SackCredential forLogin2 = controller.sealReply(16, BODY,
        new org.corral.protocol.UserAuth.Verified(ALICE, request.getNonce().toByteArray(),
            "login2")).getSack();
    assertThat(verify(forLogin2, request.getNonce().toByteArray()).getError())
        .contains("made for login2, not login1");
  }

  @Test
  void keysAreNamedAndExpire() throws AuthException {
    ClusterKey k1 = ClusterKey.random();
    ClusterKey k2 = ClusterKey.random();
    long expires = clock.instant().getEpochSecond() + 30;
    SackKeys old = SackKeys.of(Map.of("k1", new SackKeys.Key("k1", k1, expires)), "k1");
    SackKeys both = SackKeys.of(Map.of("k1", new SackKeys.Key("k1", k1, expires),
        "k2", new SackKeys.Key("k2", k2, 0)), "k2");
    SackCredential c = new SackCredentials(old, clock, ttl()).make(
        new SackCredentials.Claims(false, 1, 1, "h", "slurmctld", null), 16, DIGEST);
    assertThat(c.getKid()).isEqualTo("k1");
    SackCredentials receiver = new SackCredentials(both, clock, ttl());
    receiver.check(c, false, "slurmctld", 16, DIGEST, null);
    SackCredential later = new SackCredentials(old, clock, ttl()).make(
        new SackCredentials.Claims(false, 1, 1, "h", "slurmctld", null), 16, DIGEST);
    clock.advance(Duration.ofSeconds(31));
    assertThatThrownBy(() -> receiver.check(later, false, "slurmctld", 16, DIGEST, null))
        .hasMessageContaining("does not have or which has expired");
  }

  private SackReply verify(SackCredential reply, byte[] requestNonce) {
    return login.answer(ALICE, SackRequest.newBuilder().setVerify(SackVerify.newBuilder()
        .setCredential(reply).setType(16).setBodySha256(ByteString.copyFrom(DIGEST))
        .setRequestNonce(ByteString.copyFrom(requestNonce))).build());
  }
}

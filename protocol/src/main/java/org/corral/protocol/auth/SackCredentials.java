package org.corral.protocol.auth;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import javax.crypto.Mac;
import org.corral.protocol.AuthException;
import org.corral.protocol.NonceCache;
import org.corral.protocol.msg.SackCredential;

/**
 * AuthType=auth/slurm credentials: made and checked only where the cluster key is (slurmctld,
 * slurmdbd, slurmd, sackd). A credential names the user its issuer vouches for, who may accept
 * it (the receiver), when it was made and a nonce, and its MAC covers those and the message it
 * travels with (type and SHA-256 of the body; a reply also the nonce of the request it answers).
 * So a captured credential cannot be moved to another message, another daemon or another
 * request, used after its TTL, or used twice.
 */
public final class SackCredentials {
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);
  public static final Duration MAX_SKEW = Duration.ofSeconds(60);
  public static final int NONCE_BYTES = 16;
  private static final int MAC_BYTES = 32;
  private static final byte[] VERSION = "corral-sack1".getBytes(StandardCharsets.US_ASCII);

  private final SackKeys keys;
  private final Clock clock;
  private final long ttlMs;
  private final SecureRandom random = new SecureRandom();
  private final NonceCache nonces = new NonceCache();
  /** Nonces die with the process: nothing made before it started is accepted (a replay). */
  private final long startedMs;

  public SackCredentials(SackKeys keys, Clock clock, Duration ttl) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (ttl.toMillis() < 1000) {
      throw new IllegalArgumentException("an auth/slurm credential's TTL must be at least 1 s");
    }
    this.ttlMs = ttl.toMillis();
    this.startedMs = clock.millis();
  }

  /** What a credential says about who and what it is for, before it is signed. */
  public record Claims(boolean reply, int uid, int gid, String issuer, String receiver,
      byte[] requestNonce) {}

  /** A fresh credential for a message of {@code type} whose body hashes to {@code bodySha256}. */
  public SackCredential make(Claims claims, int type, byte[] bodySha256) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    SackKeys.Key key = keys.signing(clock.millis());
    SackCredential unsigned = SackCredential.newBuilder()
        .setReply(claims.reply())
        .setUid(claims.uid())
        .setGid(claims.gid())
        .setIssuer(claims.issuer())
        .setReceiver(claims.receiver())
        .setKid(key.kid())
        .setTimestampMs(clock.millis())
        .setNonce(ByteString.copyFrom(nonce))
        .setRequestNonce(ByteString.copyFrom(
            claims.requestNonce() == null ? new byte[0] : claims.requestNonce()))
        .build();
    return unsigned.toBuilder()
        .setMac(ByteString.copyFrom(mac(key.mac(), unsigned, type, bodySha256))).build();
  }

  /**
   * Checks a credential against the message it came with and who received it.
   *
   * @param reply whether a reply is expected (a request's credential is never taken as a reply's)
   * @param receiver who is checking: the credential must name it
   * @param requestNonce a reply's request nonce (null for a request)
   * @throws AuthException with the reason: malformed, unknown or expired key, forged or
   *     tampered with, made for another message or receiver, expired, dated in the future, or
   *     replayed
   */
  public void check(SackCredential c, boolean reply, String receiver, int type, byte[] bodySha256,
      byte[] requestNonce) throws AuthException {
    String who = (c.getReply() ? "reply credential of " : "credential of uid " + c.getUid()
        + " from ") + (c.getIssuer().isEmpty() ? "?" : c.getIssuer());
    if (c.getNonce().size() != NONCE_BYTES || c.getMac().size() != MAC_BYTES
        || c.getIssuer().isEmpty()) {
      throw new AuthException("auth/slurm credential is malformed");
    }
    long now = clock.millis();
    Mac mac = keys.verifying(c.getKid(), now).orElseThrow(() -> new AuthException(who
        + " was signed with key \"" + c.getKid() + "\", which this host does not have or which"
        + " has expired")).mac();
    SackCredential unsigned = c.toBuilder().clearMac().build();
    // Constant time: timing reveals nothing about how much of a forged MAC matched.
    if (!MessageDigest.isEqual(mac(mac, unsigned, type, bodySha256), c.getMac().toByteArray())) {
      throw new AuthException(who + ": the MAC does not match this message (forged, tampered"
          + " with, moved to another message, or signed with another cluster key)");
    }
    if (c.getReply() != reply) {
      throw new AuthException(who + " is a " + (c.getReply() ? "reply's" : "request's")
          + " credential, not a " + (reply ? "reply's" : "request's"));
    }
    if (!c.getReceiver().equals(receiver)) {
      throw new AuthException(who + " was made for " + c.getReceiver() + ", not " + receiver
          + " (re-bound)");
    }
    if (reply && !MessageDigest.isEqual(c.getRequestNonce().toByteArray(), requestNonce)) {
      throw new AuthException(who + " answers another request (re-bound)");
    }
    long age = now - c.getTimestampMs();
    if (age > ttlMs) {
      throw new AuthException(who + " expired " + (age - ttlMs) + " ms ago");
    }
    if (-age > MAX_SKEW.toMillis()) {
      throw new AuthException(who + " is dated " + (-age) + " ms in the future (clock skew above "
          + MAX_SKEW.toMillis() + " ms)");
    }
    if (c.getTimestampMs() < startedMs) {
      throw new AuthException(who + " was made before this daemon started: a replay across a"
          + " restart");
    }
    if (!nonces.firstUse(c.getNonce().toByteArray(), c.getTimestampMs() + ttlMs, now)) {
      throw new AuthException(who + " was replayed");
    }
  }

  /** SHA-256 of a message body: what a credential binds, so a large body never travels twice. */
  public static byte[] sha256(byte[] body) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(body);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this JDK", e);
    }
  }

  private static byte[] mac(Mac mac, SackCredential c, int type, byte[] bodySha256) {
    mac.update(VERSION);
    mac.update((byte) (c.getReply() ? 1 : 0));
    mac.update(ByteBuffer.allocate(2 * Integer.BYTES).putInt(c.getUid()).putInt(c.getGid())
        .array());
    for (String s : new String[] {c.getIssuer(), c.getReceiver(), c.getKid()}) {
      lengthPrefixed(mac, s.getBytes(StandardCharsets.UTF_8));
    }
    mac.update(ByteBuffer.allocate(Long.BYTES).putLong(c.getTimestampMs()).array());
    lengthPrefixed(mac, c.getNonce().toByteArray());
    lengthPrefixed(mac, c.getRequestNonce().toByteArray());
    mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(type).array());
    lengthPrefixed(mac, bodySha256);
    return mac.doFinal();
  }

  /** Each variable field with its length, so no two field lists sign the same bytes. */
  private static void lengthPrefixed(Mac mac, byte[] bytes) {
    mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    mac.update(bytes);
  }
}

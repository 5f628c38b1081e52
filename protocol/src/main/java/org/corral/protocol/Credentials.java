package org.corral.protocol;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import javax.crypto.Mac;
import org.corral.protocol.msg.Credential;
import org.corral.protocol.msg.Envelope;

/**
 * Signs and verifies daemon-to-daemon envelopes with HMAC-SHA256 over the cluster key. The MAC
 * covers the direction (request or reply), message type, body, timestamp, nonce, the sender's and
 * the receiver's names and a reply's request nonce, so none can be changed in flight, a message
 * cannot be delivered to another daemon than the one it was signed for, and a reply cannot be
 * passed off as another request's; the timestamp bounds how long a captured message stays usable
 * and the nonce cache refuses a second delivery within that time.
 *
 * <p>Requests and replies are signed apart because their type numbers overlap (a ping request and
 * a ping reply are both type 16): without that, a signed reply could be sent back to a daemon as
 * a request it would accept.
 */
public final class Credentials {
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(300);
  public static final Duration DEFAULT_MAX_SKEW = Duration.ofSeconds(60);
  public static final int NONCE_BYTES = 16;
  private static final int MAC_BYTES = 32;

  private final ClusterKey key;
  private final String self;
  private final Clock clock;
  private final long ttlMs;
  private final long maxSkewMs;
  private final SecureRandom random = new SecureRandom();
  private final NonceCache nonces = new NonceCache();
  /**
   * When this side started: the nonce cache dies with the process, so a message signed before
   * then could be replayed to a restarted daemon within its TTL; none is accepted.
   */
  private final long startedMs;

  public Credentials(ClusterKey key, String self, Clock clock) {
    this(key, self, clock, DEFAULT_TTL, DEFAULT_MAX_SKEW);
  }

  public Credentials(ClusterKey key, String self, Clock clock, Duration ttl, Duration maxSkew) {
    this.key = Objects.requireNonNull(key, "key");
    this.self = Objects.requireNonNull(self, "self");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (self.isEmpty()) {
      throw new IllegalArgumentException("a credential sender name must not be empty");
    }
    if (ttl.isNegative() || ttl.isZero() || maxSkew.isNegative()) {
      throw new IllegalArgumentException("ttl must be positive and maxSkew not negative");
    }
    this.ttlMs = ttl.toMillis();
    this.maxSkewMs = maxSkew.toMillis();
    this.startedMs = clock.millis();
  }

  /** The name this side signs as ("slurmctld" or a node name). */
  public String self() {
    return self;
  }

  /** The two kinds of signed message, kept apart in the MAC. */
  private enum Direction {
    REQUEST, REPLY
  }

  /** A request envelope for {@code receiver} carrying {@code body}, with a fresh credential. */
  public Envelope seal(String receiver, int type, byte[] body) {
    return seal(Direction.REQUEST, receiver, EMPTY, type, body);
  }

  /**
   * A reply envelope carrying {@code body} for {@code receiver} (the request's sender), bound to
   * the request's nonce, with a fresh credential.
   */
  public Envelope sealReply(String receiver, byte[] requestNonce, int type, byte[] body) {
    return seal(Direction.REPLY, receiver, requestNonce, type, body);
  }

  /**
   * Checks a request envelope's credential and returns who sent it.
   *
   * @throws AuthException if the credential is missing, its MAC is wrong (including a signed
   *     reply passed off as a request), it was signed for another receiver, it has expired, it
   *     is dated too far in the future, or its nonce was already accepted
   */
  public String verify(Envelope e) throws AuthException {
    return verify(Direction.REQUEST, e, EMPTY);
  }

  /**
   * Checks a reply envelope's credential, as {@link #verify} does requests, and that it answers
   * the request whose nonce is {@code requestNonce}.
   */
  public String verifyReply(Envelope e, byte[] requestNonce) throws AuthException {
    return verify(Direction.REPLY, e, requestNonce);
  }

  private static final byte[] EMPTY = new byte[0];

  private Envelope seal(Direction direction, String receiver, byte[] requestNonce, int type,
      byte[] body) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    long now = clock.millis();
    Credential credential = Credential.newBuilder()
        .setSender(self)
        .setReceiver(receiver)
        .setTimestampMs(now)
        .setNonce(ByteString.copyFrom(nonce))
        .setRequestNonce(ByteString.copyFrom(requestNonce))
        .build();
    credential = credential.toBuilder()
        .setMac(ByteString.copyFrom(mac(direction, type, body, credential))).build();
    return Envelope.newBuilder()
        .setType(type)
        .setBody(ByteString.copyFrom(body))
        .setCredential(credential)
        .build();
  }

  private String verify(Direction direction, Envelope e, byte[] requestNonce)
      throws AuthException {
    if (!e.hasCredential()) {
      throw new AuthException("message carries no credential");
    }
    Credential c = e.getCredential();
    if (c.getNonce().size() != NONCE_BYTES || c.getMac().size() != MAC_BYTES
        || c.getSender().isEmpty()) {
      throw new AuthException("credential is malformed");
    }
    byte[] nonce = c.getNonce().toByteArray();
    byte[] expected = mac(direction, e.getType(), e.getBody().toByteArray(), c);
    // Constant time, so response timing reveals nothing about how much of a forged MAC matched.
    if (!MessageDigest.isEqual(expected, c.getMac().toByteArray())) {
      throw new AuthException("credential MAC does not match (forged, tampered with, or signed"
          + " with another cluster key)");
    }
    if (!c.getReceiver().equals(self)) {
      throw new AuthException("credential from " + c.getSender() + " was signed for "
          + (c.getReceiver().isEmpty() ? "no receiver" : c.getReceiver()) + ", not " + self);
    }
    if (!MessageDigest.isEqual(c.getRequestNonce().toByteArray(), requestNonce)) {
      throw new AuthException("reply from " + c.getSender() + " answers another request");
    }
    long now = clock.millis();
    long age = now - c.getTimestampMs();
    if (age > ttlMs) {
      throw new AuthException("credential from " + c.getSender() + " expired " + (age - ttlMs)
          + " ms ago");
    }
    if (-age > maxSkewMs) {
      throw new AuthException("credential from " + c.getSender() + " is dated " + (-age)
          + " ms in the future (clock skew above " + maxSkewMs + " ms)");
    }
    if (c.getTimestampMs() < startedMs) {
      throw new AuthException("credential from " + c.getSender() + " was signed before this daemon"
          + " started (" + (startedMs - c.getTimestampMs()) + " ms): a replay across a restart");
    }
    if (!nonces.firstUse(nonce, c.getTimestampMs() + ttlMs, now)) {
      throw new AuthException("credential from " + c.getSender() + " was replayed");
    }
    return c.getSender();
  }

  private byte[] mac(Direction direction, int type, byte[] body, Credential c) {
    Mac mac = key.newMac();
    mac.update((byte) direction.ordinal());
    mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(type).array());
    lengthPrefixed(mac, body);
    mac.update(ByteBuffer.allocate(Long.BYTES).putLong(c.getTimestampMs()).array());
    lengthPrefixed(mac, c.getNonce().toByteArray());
    lengthPrefixed(mac, c.getSender().getBytes(StandardCharsets.UTF_8));
    lengthPrefixed(mac, c.getReceiver().getBytes(StandardCharsets.UTF_8));
    lengthPrefixed(mac, c.getRequestNonce().toByteArray());
    return mac.doFinal();
  }

  /** Each variable field with its length, so no two field lists sign the same bytes. */
  private static void lengthPrefixed(Mac mac, byte[] bytes) {
    mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    mac.update(bytes);
  }
}

package org.corral.protocol.auth;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * What a MUNGE credential's payload says about the message it travels with: direction, time,
 * a nonce and a SHA-256 digest of the message's receiver, type and body (and, for a reply, the
 * nonce of the request it answers). MUNGE vouches for who made the payload; the digest ties the
 * credential to this one message and receiver, so a captured credential cannot be moved onto
 * another body, type or daemon, and a reply cannot be served for another request.
 *
 * <p>Printed as {@code corral2:DIR:TIME_MS:NONCE_HEX:DIGEST_HEX} (munge -s takes a string).
 */
public record MessageBinding(char direction, long timestampMs, byte[] nonce, byte[] digest) {
  public static final char REQUEST = 'q';
  public static final char REPLY = 'r';
  public static final int NONCE_BYTES = 16;
  private static final String VERSION = "corral2";
  private static final HexFormat HEX = HexFormat.of();

  /** The binding of a message with these contents. */
  public static MessageBinding of(char direction, String receiver, int type, byte[] body,
      long timestampMs, byte[] nonce, byte[] requestNonce) {
    return new MessageBinding(direction, timestampMs, nonce.clone(),
        digest(direction, receiver, type, body, timestampMs, nonce, requestNonce));
  }

  /**
   * Whether this binding was made for exactly this message to this receiver (constant time on
   * the digest).
   */
  public boolean binds(String receiver, int type, byte[] body, byte[] requestNonce) {
    return MessageDigest.isEqual(digest,
        digest(direction, receiver, type, body, timestampMs, nonce, requestNonce));
  }

  public String print() {
    return VERSION + ":" + direction + ":" + timestampMs + ":" + HEX.formatHex(nonce) + ":"
        + HEX.formatHex(digest);
  }

  /** The binding a payload prints, or empty if it is not one. */
  public static Optional<MessageBinding> parse(String payload) {
    String[] f = payload.strip().split(":", -1);
    if (f.length != 5 || !f[0].equals(VERSION) || f[1].length() != 1
        || (f[1].charAt(0) != REQUEST && f[1].charAt(0) != REPLY)) {
      return Optional.empty();
    }
    try {
      byte[] nonce = HEX.parseHex(f[3]);
      byte[] digest = HEX.parseHex(f[4]);
      if (nonce.length != NONCE_BYTES || digest.length != 32) {
        return Optional.empty();
      }
      return Optional.of(new MessageBinding(f[1].charAt(0), Long.parseLong(f[2]), nonce, digest));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static byte[] digest(char direction, String receiver, int type, byte[] body,
      long timestampMs, byte[] nonce, byte[] requestNonce) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this JDK", e);
    }
    sha.update((byte) direction);
    byte[] to = receiver.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(to.length).array());
    sha.update(to);
    sha.update(ByteBuffer.allocate(Integer.BYTES + Long.BYTES).putInt(type).putLong(timestampMs)
        .array());
    sha.update(nonce);
    sha.update(requestNonce == null ? new byte[0] : requestNonce);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(body.length).array());
    sha.update(body);
    return sha.digest();
  }
}

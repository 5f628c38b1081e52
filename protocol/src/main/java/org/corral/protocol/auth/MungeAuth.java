package org.corral.protocol.auth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntPredicate;
import org.corral.protocol.AuthException;
import org.corral.protocol.ClientAuth;
import org.corral.protocol.NonceCache;
import org.corral.protocol.Peer;
import org.corral.protocol.UserAuth;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.Envelope;

/**
 * AuthType=auth/munge: a user's request carries a MUNGE credential made by the host's munged
 * for that user, whose payload binds the request ({@link MessageBinding}). The server decodes
 * it through its own munged (same key by copy), which vouches for the uid and gid and refuses
 * an expired or replayed credential; we check the binding, our own TTL and clock skew, and our
 * own nonce cache as well, so a credential replayed to another server process is refused too.
 * Replies are sealed the same way by the server (as root or SlurmUser) and bound to the request's
 * nonce; the command trusts only those uids.
 */
public final class MungeAuth implements UserAuth {
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(300);
  public static final Duration MAX_SKEW = Duration.ofSeconds(60);

  private final MungeProgram munge;
  /** Who requests must be made for ("slurmctld", "slurmdbd"); null in a command. */
  private final String self;
  private final UserDirectory users;
  private final Clock clock;
  private final long ttlMs;
  private final SecureRandom random = new SecureRandom();
  private final NonceCache nonces = new NonceCache();

  /** @param self the receiver requests must be made for; null where none is received */
  public MungeAuth(MungeProgram munge, UserDirectory users, Clock clock, Duration ttl,
      String self) {
    this.self = self;
    this.munge = Objects.requireNonNull(munge, "munge");
    this.users = Objects.requireNonNull(users, "users");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (ttl.toSeconds() < 1) {
      throw new IllegalArgumentException("a MUNGE credential's TTL must be at least 1 s");
    }
    this.ttlMs = ttl.toMillis();
  }

  /**
   * What a daemon accepts from users of other hosts: MUNGE credentials when AuthType is
   * auth/munge (Slurm's default), else none (null). {@code self}: the receiver requests must be
   * made for, or null in a command.
   */
  public static MungeAuth forAuthType(String authType, String authInfo, Clock clock,
      String self) {
    if (!"auth/munge".equals(authType)) {
      return null;
    }
    return new MungeAuth(new MungeProgram(MungeProgram.socketFrom(authInfo)),
        UserDirectory.system(), clock, ttlFrom(authInfo), self);
  }

  /** The TTL AuthInfo's {@code ttl=N} names, else {@link #DEFAULT_TTL}. */
  public static Duration ttlFrom(String authInfo) {
    return UserAuths.ttlFrom(authInfo, DEFAULT_TTL);
  }

  /** A request envelope for {@code receiver} with a fresh credential of this process's user. */
  public ClientAuth.Sealed seal(String receiver, int type, byte[] body) throws AuthException {
    byte[] nonce = freshNonce();
    MessageBinding b = MessageBinding.of(MessageBinding.REQUEST, receiver, type, body,
        clock.millis(), nonce, null);
    return new ClientAuth.Sealed(envelope(type, body, munge.encode(b.print(), ttlSeconds())),
        nonce);
  }

  /** This side of a command's exchange: replies are trusted when sealed by {@code trusted} uids. */
  public ClientAuth client(IntPredicate trusted) {
    return new ClientAuth() {
      @Override
      public Sealed seal(String receiver, int type, byte[] body) throws AuthException {
        return MungeAuth.this.seal(receiver, type, body);
      }

      @Override
      public void verifyReply(Envelope reply, Sealed request) throws AuthException {
        MungeAuth.this.verifyReply(reply, request.nonce(), trusted);
      }

      @Override
      public boolean carriesCredential(Envelope reply) {
        return !reply.getMunge().isEmpty();
      }
    };
  }

  @Override
  public boolean carriesCredential(Envelope request) {
    return !request.getMunge().isEmpty();
  }

  @Override
  public Verified verify(Envelope request) throws AuthException {
    MungeProgram.Decoded d = munge.decode(request.getMunge());
    if (self == null) {
      throw new AuthException("this process receives no requests");
    }
    MessageBinding b = check(d, MessageBinding.REQUEST, request, self, null);
    if (!nonces.firstUse(b.nonce(), b.timestampMs() + ttlMs, clock.millis())) {
      throw new AuthException("credential of uid " + d.uid() + " was replayed");
    }
    String name = users.userName(d.uid()).orElse(Integer.toString(d.uid()));
    return new Verified(new Peer(d.uid(), d.gid(), name, null), b.nonce(), userReceiver(d.uid()));
  }

  @Override
  public Envelope sealReply(int type, byte[] body, Verified request) throws AuthException {
    MessageBinding b = MessageBinding.of(MessageBinding.REPLY, request.client(), type, body,
        clock.millis(), freshNonce(), request.nonce());
    return envelope(type, body, munge.encode(b.print(), ttlSeconds()));
  }

  /**
   * Checks a reply: bound to our request and sealed by a uid we trust (root or SlurmUser).
   *
   * @throws AuthException if not
   */
  public void verifyReply(Envelope reply, byte[] requestNonce, IntPredicate trusted)
      throws AuthException {
    if (reply.getMunge().isEmpty()) {
      throw new AuthException("reply carries no MUNGE credential");
    }
    MungeProgram.Decoded d = munge.decode(reply.getMunge());
    if (!trusted.test(d.uid())) {
      throw new AuthException("reply was sealed by uid " + d.uid()
          + ", which is neither root nor SlurmUser");
    }
    check(d, MessageBinding.REPLY, reply, userReceiver(ownUid()), requestNonce);
  }

  /** A reply's receiver: the user whose request it answers. */
  private static String userReceiver(int uid) {
    return "uid:" + uid;
  }

  private static int ownUid() throws AuthException {
    try {
      return (Integer) java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"),
          "unix:uid");
    } catch (java.io.IOException e) {
      throw new AuthException("cannot tell this process's uid: " + e.getMessage());
    }
  }

  private MessageBinding check(MungeProgram.Decoded d, char direction, Envelope e,
      String receiver, byte[] requestNonce) throws AuthException {
    MessageBinding b = MessageBinding.parse(d.payload())
        .filter(x -> x.direction() == direction)
        .orElseThrow(() -> new AuthException("credential of uid " + d.uid()
            + " does not carry a Corral " + (direction == MessageBinding.REQUEST ? "request"
            : "reply") + " binding"));
    if (!b.binds(receiver, e.getType(), e.getBody().toByteArray(), requestNonce)) {
      throw new AuthException("credential of uid " + d.uid()
          + " was made for another message or receiver than " + receiver
          + " (re-bound or tampered with)");
    }
    long now = clock.millis();
    long age = now - b.timestampMs();
    if (age > ttlMs) {
      throw new AuthException("credential of uid " + d.uid() + " expired " + (age - ttlMs)
          + " ms ago");
    }
    if (-age > MAX_SKEW.toMillis() || Math.abs(b.timestampMs() / 1000 - d.encodeTimeS()) > 2) {
      throw new AuthException("credential of uid " + d.uid() + " is dated " + (-age)
          + " ms in the future, or not when MUNGE encoded it");
    }
    return b;
  }

  private int ttlSeconds() {
    return (int) Math.max(1, ttlMs / 1000);
  }

  private byte[] freshNonce() {
    byte[] nonce = new byte[MessageBinding.NONCE_BYTES];
    random.nextBytes(nonce);
    return nonce;
  }

  private static Envelope envelope(int type, byte[] body, String credential) {
    return Envelope.newBuilder().setType(type)
        .setBody(com.google.protobuf.ByteString.copyFrom(body)).setMunge(credential).build();
  }
}

package org.corral.protocol;

import org.corral.protocol.msg.Envelope;

/**
 * The first frame a daemon sends on a new TCP connection: an empty body signed like any request.
 * Until a connection has sent a valid one its frames are held to a small limit
 * ({@link FrameLimits#unauthenticated}), so a client without the cluster key cannot make a daemon
 * read a large frame before it finds the credential wrong. It has no reply. A user's command on
 * another host sends one with a MUNGE credential before a request over that limit (a large job
 * script): its frames are then held to a user's limits by type, as on the daemon's own host.
 */
final class Hello {
  /** Below every request's field number (they start at 10), so never a request's type. */
  static final int TYPE = 1;

  private Hello() {}

  static Envelope sealed(Credentials credentials, String receiver) {
    return credentials.seal(receiver, TYPE, new byte[0]);
  }

  /** The sender the hello proves, or why it proves nothing. */
  static String verify(Credentials credentials, Envelope hello) throws AuthException {
    if (credentials == null) {
      throw new AuthException("this server accepts no daemon credentials");
    }
    if (!hello.getBody().isEmpty()) {
      throw new AuthException("a hello carries no body");
    }
    return credentials.verify(hello);
  }

  /** The user a MUNGE hello proves, or why it proves nothing. */
  static Peer verifyUser(UserAuth auth, Envelope hello) throws AuthException {
    if (!hello.getBody().isEmpty()) {
      throw new AuthException("a hello carries no body");
    }
    return auth.verify(hello).peer();
  }
}

package org.corral.protocol;

import org.corral.protocol.msg.Envelope;

/**
 * How a server learns which user sent a request over TCP (from another host), and how it
 * answers so that user's command can trust the reply. Daemons prove themselves with the cluster
 * key ({@link Credentials}); users on the controller's host with the kernel ({@link LocalPeers}).
 */
public interface UserAuth {
  /** A request whose credential was verified: the user it proves, and what its reply binds to. */
  record Verified(Peer peer, byte[] nonce) {}

  /** Whether this envelope carries a credential of this kind. */
  boolean carriesCredential(Envelope request);

  /** Verifies a request's credential, bound to its type and body. */
  Verified verify(Envelope request) throws AuthException;

  /** The reply to a verified request, bound to it. */
  Envelope sealReply(int type, byte[] body, Verified request) throws AuthException;
}

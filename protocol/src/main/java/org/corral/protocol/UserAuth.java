package org.corral.protocol;

import org.corral.protocol.msg.Envelope;

/**
 * How a server learns which user sent a request over TCP (from another host), and how it
 * answers so that user's command can trust the reply. Daemons prove themselves with the cluster
 * key ({@link Credentials}); users on the controller's host with the kernel ({@link LocalPeers}).
 * Implementations: MUNGE (auth/munge) and the cluster key through sackd or slurmd (auth/slurm).
 */
public interface UserAuth {
  /**
   * A request whose credential was verified: the user it proves, and what its reply binds to
   * (the request's nonce, and the client the reply is for).
   */
  record Verified(Peer peer, byte[] nonce, String client) {}

  /** Whether this envelope carries a credential of this kind. */
  boolean carriesCredential(Envelope request);

  /** Verifies a request's credential, bound to its type and body. */
  Verified verify(Envelope request) throws AuthException;

  /** The reply to a verified request, bound to it. */
  Envelope sealReply(int type, byte[] body, Verified request) throws AuthException;
}

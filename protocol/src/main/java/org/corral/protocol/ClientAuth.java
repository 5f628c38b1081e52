package org.corral.protocol;

import org.corral.protocol.msg.Envelope;

/**
 * How a user's command on another host than the daemon's proves who it is, and how it trusts
 * the reply: MUNGE (auth/munge) or its host's sackd or slurmd (auth/slurm). Each credential is
 * bound to one message and one receiver.
 */
public interface ClientAuth {
  /** A request ready to send, and the nonce its reply must be bound to. */
  record Sealed(Envelope envelope, byte[] nonce) {}

  /** {@code body} of {@code type} with a fresh credential of this process's user for {@code receiver}. */
  Sealed seal(String receiver, int type, byte[] body) throws AuthException;

  /** Checks that a reply was sealed by a daemon, for this request. */
  void verifyReply(Envelope reply, Sealed request) throws AuthException;

  /** Whether a reply carries a credential of this kind (a refusal of ours comes back without). */
  boolean carriesCredential(Envelope reply);
}

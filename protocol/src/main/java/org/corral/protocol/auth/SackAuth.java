package org.corral.protocol.auth;

import com.google.protobuf.ByteString;
import java.util.Objects;
import org.corral.protocol.AuthException;
import org.corral.protocol.Peer;
import org.corral.protocol.UserAuth;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.SackCredential;

/**
 * AuthType=auth/slurm on a daemon that users reach over TCP (slurmctld, slurmdbd): a request's
 * credential was minted by the sackd or slurmd of the user's host, which vouched for the user
 * (SO_PEERCRED); we check it with the cluster key, bound to the envelope and to us. Replies are
 * sealed for the host that minted the request's credential, bound to its nonce; the command has
 * that host's sack socket check them.
 */
public final class SackAuth implements UserAuth {
  private final SackCredentials credentials;
  private final String self;
  private final UserDirectory users;
  private final int uid;
  private final int gid;

  /**
   * @param self the name credentials must be made for ("slurmctld", "slurmdbd")
   * @param uid the uid and gid replies are sealed as (this daemon's)
   */
  public SackAuth(SackCredentials credentials, String self, UserDirectory users, int uid,
      int gid) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.self = Objects.requireNonNull(self, "self");
    this.users = Objects.requireNonNull(users, "users");
    this.uid = uid;
    this.gid = gid;
  }

  @Override
  public boolean carriesCredential(Envelope request) {
    return request.hasSack();
  }

  @Override
  public Verified verify(Envelope request) throws AuthException {
    SackCredential c = request.getSack();
    credentials.check(c, false, self, request.getType(),
        SackCredentials.sha256(request.getBody().toByteArray()), null);
    String name = users.userName(c.getUid()).orElse(Integer.toString(c.getUid()));
    return new Verified(new Peer(c.getUid(), c.getGid(), name, null), c.getNonce().toByteArray(),
        c.getIssuer());
  }

  @Override
  public Envelope sealReply(int type, byte[] body, Verified request) {
    SackCredential c = credentials.make(new SackCredentials.Claims(true, uid, gid, self,
        request.client(), request.nonce()), type, SackCredentials.sha256(body));
    return Envelope.newBuilder().setType(type).setBody(ByteString.copyFrom(body)).setSack(c)
        .build();
  }
}

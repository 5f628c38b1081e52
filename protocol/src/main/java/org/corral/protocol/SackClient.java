package org.corral.protocol;

import com.google.protobuf.ByteString;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.corral.protocol.auth.SackCredentials;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.SackMint;
import org.corral.protocol.msg.SackReply;
import org.corral.protocol.msg.SackRequest;
import org.corral.protocol.msg.SackVerify;

/**
 * A command's credentials under AuthType=auth/slurm: its host's sack socket (sackd's, or
 * slurmd's on a compute node) mints them and checks the replies, as the command has no key.
 */
public final class SackClient implements ClientAuth {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final int TYPE = 1;

  private final Path socket;

  public SackClient(Path socket) {
    this.socket = Objects.requireNonNull(socket, "socket");
  }

  @Override
  public Sealed seal(String receiver, int type, byte[] body) throws AuthException {
    SackReply r = ask(SackRequest.newBuilder().setMint(SackMint.newBuilder()
        .setReceiver(receiver).setType(type)
        .setBodySha256(ByteString.copyFrom(SackCredentials.sha256(body)))).build());
    Envelope e = Envelope.newBuilder().setType(type).setBody(ByteString.copyFrom(body))
        .setSack(r.getCredential()).build();
    return new Sealed(e, r.getCredential().getNonce().toByteArray());
  }

  @Override
  public void verifyReply(Envelope reply, Sealed request) throws AuthException {
    if (!reply.hasSack()) {
      throw new AuthException("reply carries no auth/slurm credential");
    }
    ask(SackRequest.newBuilder().setVerify(SackVerify.newBuilder()
        .setCredential(reply.getSack()).setType(reply.getType())
        .setBodySha256(ByteString.copyFrom(SackCredentials.sha256(reply.getBody().toByteArray())))
        .setRequestNonce(ByteString.copyFrom(request.nonce()))).build());
  }

  @Override
  public boolean carriesCredential(Envelope reply) {
    return reply.hasSack();
  }

  private SackReply ask(SackRequest request) throws AuthException {
    Envelope answer;
    try {
      answer = RpcCall.exchange(StandardProtocolFamily.UNIX, UnixDomainSocketAddress.of(socket),
          "sack socket " + socket, Envelope.newBuilder().setType(TYPE)
              .setBody(request.toByteString()).build(), TIMEOUT);
    } catch (TransportException e) {
      throw new AuthException("cannot reach this host's sack socket (" + e.getMessage()
          + "): is sackd (or slurmd) running here?");
    }
    SackReply reply;
    try {
      reply = SackReply.parseFrom(answer.getBody());
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AuthException("the sack socket " + socket + " answered nonsense: "
          + e.getMessage());
    }
    if (!reply.getError().isEmpty()) {
      throw new AuthException(reply.getError());
    }
    return reply;
  }
}

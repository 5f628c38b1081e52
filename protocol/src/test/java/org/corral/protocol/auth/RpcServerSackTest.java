package org.corral.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.corral.common.SlurmError;
import org.corral.protocol.ClientAuth;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.FrameLimits;
import org.corral.protocol.Peer;
import org.corral.protocol.Responses;
import org.corral.protocol.RpcServer;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.SackClient;
import org.corral.protocol.SackServer;
import org.corral.protocol.TransportException;
import org.corral.protocol.UserChannel;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.ConfigRequest;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AuthType=auth/slurm end to end in one process: a command asks its host's sack socket for a
 * credential, sends it to a server over TCP, and has the sack socket check the reply; forged,
 * replayed and re-bound credentials are refused and the server serves on.
 */
@Timeout(30)
class RpcServerSackTest {
  private static final Request PING =
      Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build();
  private static final int PING_TYPE = Request.BodyCase.PING.getNumber();

  @TempDir Path dir;
  private final SackKeys keys = SackKeys.of(ClusterKey.random());
  private final AtomicReference<Peer> lastPeer = new AtomicReference<>();
  private RpcServer server;
  private SackServer sack;
  private SackClient client;

  @BeforeEach
  void start() throws Exception {
    Clock clock = Clock.systemUTC();
    server = RpcServer.start(RpcServerConfig.tcp("127.0.0.1", 0),
        new Credentials(ClusterKey.random(), "slurmctld", clock),
        new SackAuth(new SackCredentials(keys, clock, Duration.ofSeconds(60)), "slurmctld",
            UserDirectory.system(), 0, 0),
        (peer, request) -> {
          lastPeer.set(peer);
          return request.hasPing()
              ? Response.newBuilder().setPing(PingReply.newBuilder().setHost("ctl")).build()
              : Responses.error(SlurmError.INVALID_MESSAGE, "not served here");
        });
    Path socket = dir.resolve("sack.socket");
    sack = SackServer.start(new SackKiosk(new SackCredentials(keys, clock,
        Duration.ofSeconds(60)), "login1"), socket);
    client = new SackClient(socket);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (sack != null) {
      sack.close();
    }
  }

  private UserChannel channel(ClientAuth auth) {
    return new UserChannel("127.0.0.1", server.tcpPort(), "slurmctld", auth,
        Duration.ofSeconds(10));
  }

  private Response sendRaw(Envelope e) throws Exception {
    return Response.parseFrom(channel(client).send("test", e).getBody());
  }

  private void assertRefused(Envelope e, String why) throws Exception {
    Response r = sendRaw(e);
    assertThat(r.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
    assertThat(r.getErrorMessage()).contains(why);
    assertThat(channel(client).call(PING).getPing().getHost()).isEqualTo("ctl"); // serves on
  }

  @Test
  void theSackSocketVouchesForTheCallerAndChecksTheReply() throws Exception {
    assertThat(channel(client).call(PING).getPing().getHost()).isEqualTo("ctl");
    Peer peer = lastPeer.get();
    assertThat(peer.uid()).isEqualTo(UserAuths.processId("uid"));
    assertThat(peer.isDaemon()).isFalse();
  }

  @Test
  void aLargeRequestFollowsAHelloWithTheUsersCredential() throws Exception {
    Request large = Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
        .setSpec(JobSpec.newBuilder().setScript("#!/bin/sh\n" + "#".repeat(200_000) + "\n")))
        .build();
    assertThat(large.getSerializedSize()).isGreaterThan(FrameLimits.DEFAULT_UNAUTHENTICATED);
    assertThat(channel(client).call(large).getErrorMessage()).isEqualTo("not served here");
  }

  @Test
  void forgedReplayedAndReboundCredentialsAreRefused() throws Exception {
    Envelope sealed = client.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    int someoneElse = sealed.getSack().getUid() + 1; // root's credential turned into another's
    assertRefused(sealed.toBuilder().setSack(sealed.getSack().toBuilder().setUid(someoneElse))
        .build(), "MAC does not match");
    assertThat(sendRaw(sealed).getErrorCode()).isZero();
    assertRefused(sealed, "replayed");
    Request other = Request.newBuilder().setConfig(ConfigRequest.getDefaultInstance()).build();
    Envelope fresh = client.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    assertRefused(fresh.toBuilder().setType(other.getBodyCase().getNumber())
        .setBody(other.toByteString()).build(), "MAC does not match");
    assertRefused(client.seal("slurmdbd", PING_TYPE, PING.toByteArray()).envelope(),
        "made for slurmdbd, not slurmctld");
    assertRefused(Envelope.newBuilder().setType(PING_TYPE).setBody(PING.toByteString()).build(),
        "no credential");
  }

  @Test
  void aReplyMovedFromAnotherRequestIsRefusedByTheCommand() throws Exception {
    ClientAuth.Sealed first = client.seal("slurmctld", PING_TYPE, PING.toByteArray());
    Envelope firstReply = channel(client).send("first", first.envelope());
    ClientAuth.Sealed second = client.seal("slurmctld", PING_TYPE, PING.toByteArray());
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> client.verifyReply(firstReply, second))
        .hasMessageContaining("answers another request");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> client.verifyReply(
        firstReply.toBuilder().setBody(ByteString.copyFromUtf8("x")).build(), first))
        .hasMessageContaining("MAC does not match");
    client.verifyReply(firstReply, first);
  }

  @Test
  void withoutASackSocketTheCommandSaysWhatIsMissing() {
    UserChannel nowhere = channel(new SackClient(dir.resolve("none.socket")));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> nowhere.call(PING))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("is sackd (or slurmd) running here?");
  }
}

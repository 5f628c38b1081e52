package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Random;
import org.corral.common.SlurmError;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.FrameCodec;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hostile input against a running controller: each refused, and the controller keeps serving. */
class SecurityTest {
  private static LocalCluster cluster;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    cluster = LocalCluster.up(1, 2, 1000);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static final Request NODES = Request.newBuilder()
      .setNodeInfo(NodeInfoRequest.getDefaultInstance()).build();

  private static Envelope sealed(Credentials creds) {
    return creds.seal(Request.BodyCase.NODE_INFO.getNumber(), NODES.toByteArray());
  }

  private static Response exchange(Envelope e) throws Exception {
    try (Socket s = new Socket("127.0.0.1", cluster.portBase)) {
      s.setSoTimeout(10_000);
      FrameCodec.write(s.getOutputStream(), e);
      Envelope reply = FrameCodec.read(s.getInputStream(), 1 << 20);
      return Response.parseFrom(reply.getBody());
    }
  }

  private static Credentials realKey(Clock clock) throws IOException {
    return new Credentials(ClusterKey.load(cluster.dir.resolve("slurm.key")), "n1", clock);
  }

  private static void stillServes() throws Exception {
    assertThat(exchange(sealed(realKey(Clock.systemUTC()))).getErrorCode()).isZero();
    assertThat(cluster.as(null, "scontrol", "ping").out()).contains("is UP");
  }

  @Test
  void forgedCredentialIsRefused() throws Exception {
    Path other = cluster.root.resolve("other.key");
    ClusterKey.generate(other);
    Response r = exchange(sealed(new Credentials(ClusterKey.load(other), "n1", Clock.systemUTC())));
    assertThat(r.getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
    Files.delete(other);
    stillServes();
  }

  @Test
  void replayedCredentialIsRefused() throws Exception {
    Envelope once = sealed(realKey(Clock.systemUTC()));
    assertThat(exchange(once).getErrorCode()).isZero();
    assertThat(exchange(once).getErrorCode()).isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
    stillServes();
  }

  @Test
  void expiredCredentialIsRefused() throws Exception {
    Clock old = Clock.offset(Clock.systemUTC(), Duration.ofHours(-1));
    assertThat(exchange(sealed(realKey(old))).getErrorCode())
        .isEqualTo(SlurmError.AUTH_CRED_INVALID.code());
    stillServes();
  }

  @Test
  void oversizedFrameAndRandomBytesAreRefused() throws Exception {
    try (Socket s = new Socket("127.0.0.1", cluster.portBase)) {
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(Integer.MAX_VALUE);
      out.writeShort(FrameCodec.PROTOCOL_VERSION);
      out.flush();
      assertClosedOrError(new DataInputStream(s.getInputStream()));
    }
    byte[] junk = new byte[4096];
    new Random(42).nextBytes(junk);
    try (Socket s = new Socket("127.0.0.1", cluster.portBase)) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(junk);
      s.getOutputStream().flush();
      assertClosedOrError(new DataInputStream(s.getInputStream()));
    }
    stillServes();
  }

  /** The server answers with an error frame and closes, or just closes: never hangs. */
  private static void assertClosedOrError(DataInputStream in) throws Exception {
    byte[] all = in.readAllBytes();
    if (all.length > 0) {
      Envelope e = FrameCodec.read(new java.io.ByteArrayInputStream(all), 1 << 20);
      assertThat(Response.parseFrom(e.getBody()).getErrorCode()).isNotZero();
    }
  }

  @Test
  void aUserCannotShutTheControllerDown() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    LocalCluster.Result r = cluster.as(alice, "scontrol", "shutdown");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err()).isEqualTo("slurm_shutdown error: Access/permission denied\n");
    stillServes();
  }
}

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
    return creds.seal("slurmctld", Request.BodyCase.NODE_INFO.getNumber(), NODES.toByteArray());
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

  /** Slurm 22.05's answer to a script over max_script_size (4 MB by default), as recorded. */
  private static final String SCRIPT_TOO_LARGE =
      "sbatch: error: Batch job submission failed: Pathname of a file, directory or other parameter too long\n";

  /** A batch script of exactly {@code bytes} bytes, owned by the user. */
  private static Path script(TestUsers.User user, int bytes) throws Exception {
    Path dir = cluster.workDir(user);
    Path f = dir.resolve("big-" + bytes + ".sh");
    String head = "#!/bin/sh\ntrue\n";
    Files.writeString(f, head + "#".repeat(bytes - head.length() - 1) + "\n");
    assertThat(Files.size(f)).isEqualTo(bytes);
    new ProcessBuilder("chown", user.uid() + ":" + user.gid(), f.toString()).start().waitFor();
    return f;
  }

  @Test
  void aScriptOverMaxScriptSizeIsRefusedWithSlurmsMessage() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Path dir = cluster.workDir(alice);
    LocalCluster.Result limit = cluster.as(alice, dir, "sbatch", "-H", script(alice, 4 * 1024 * 1024).toString());
    assertThat(limit.exitCode()).as(limit.toString()).isZero();
    LocalCluster.Result over = cluster.as(alice, dir, "sbatch", "-H", script(alice, 4 * 1024 * 1024 + 1).toString());
    assertThat(over.exitCode()).isEqualTo(1);
    assertThat(over.err()).isEqualTo(SCRIPT_TOO_LARGE);
    cluster.as(null, "scancel", String.valueOf(LocalCluster.jobId(limit)));
    stillServes();
  }

  /**
   * Far over the limit, the request is refused from its first bytes (the controller never reads
   * or keeps it) and still gets Slurm's message.
   */
  @Test
  void aHugeScriptIsRefusedBeforeItIsRead() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Path dir = cluster.workDir(alice);
    LocalCluster.Result huge = cluster.as(alice, dir, "sbatch", "-H", script(alice, 40 * 1024 * 1024).toString());
    assertThat(huge.exitCode()).isEqualTo(1);
    assertThat(huge.err()).isEqualTo(SCRIPT_TOO_LARGE);
    assertThat(cluster.as(null, "squeue", "-h", "-u", alice.name()).out()).isEmpty();
    stillServes();
  }

  /** Without a signed hello a TCP client may not send more than a small frame: 1 MiB is refused from its header. */
  @Test
  void anUnauthenticatedClientCannotMakeTheControllerReadALargeFrame() throws Exception {
    try (Socket s = new Socket("127.0.0.1", cluster.portBase)) {
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(1 << 20);
      out.writeShort(FrameCodec.PROTOCOL_VERSION);
      out.write(new byte[] {0x08, 11}); // a job_info request's type
      out.flush();
      Envelope e = FrameCodec.read(s.getInputStream(), 1 << 20);
      Response r = Response.parseFrom(e.getBody());
      assertThat(r.getErrorCode()).isEqualTo(SlurmError.MESSAGE_TOO_LARGE.code());
      assertThat(r.getErrorMessage()).contains("limit of 65536");
    }
    stillServes();
  }

  /** Every regular file and directory under {@code root} whose mode gives group or others anything. */
  private static java.util.List<String> openToOthers(Path root) throws Exception {
    java.util.List<String> open = new java.util.ArrayList<>();
    try (var all = Files.walk(root)) {
      for (Path p : all.toList()) {
        if (Files.isSymbolicLink(p) || !(Files.isRegularFile(p) || Files.isDirectory(p))) {
          continue;
        }
        var mode = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        if (!mode.endsWith("------")) {
          open.add(p + " " + mode);
        }
      }
    }
    return open;
  }

  /**
   * What holds other users' jobs (StateSaveLocation: journal and snapshots with every script and
   * environment; the accounting database and its WAL; the daemons' logs) is the daemons' alone,
   * after `corral up` and after a job ran: a second user can read none of it.
   */
  @Test
  void stateAccountingAndLogsAreClosedToOtherUsers() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    Path state = cluster.dir.resolve("state");
    assertThat(openToOthers(state)).as("after corral up").isEmpty();
    Path work = cluster.workDir(alice);
    LocalCluster.Result r = cluster.as(alice, work, "sbatch", "--wrap", "echo ALICE_SECRET=hunter2 >/dev/null",
        "--export=ALL,ALICE_SECRET=hunter2");
    int id = LocalCluster.jobId(r);
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    assertThat(openToOthers(state)).as("after a job ran").isEmpty();
    try (var dbd = Files.list(cluster.dir.resolve("dbd"))) {
      for (Path f : dbd.toList()) {
        assertThat(openToOthers(f)).as("accounting database").isEmpty();
      }
    }
    try (var logs = Files.list(cluster.dir.resolve("log"))) {
      for (Path f : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
        assertThat(openToOthers(f)).as("log").isEmpty();
      }
    }
    LocalCluster.Result grep = cluster.as(bob, work.getParent(), "grep", "-r", "hunter2", state.toString(),
        cluster.dir.resolve("dbd").toString(), cluster.dir.resolve("log").toString());
    assertThat(grep.out()).doesNotContain("hunter2");
    assertThat(grep.exitCode()).isNotZero();
  }

  /** A negative --nice raises a job's priority: operators' only, refused to others with Slurm 22.05's words. */
  @Test
  void aNegativeNiceFromAPlainUserIsRefusedAsSlurmRefusesIt() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Path work = cluster.workDir(alice);
    LocalCluster.Result sbatch = cluster.as(alice, work, "sbatch", "--nice=-10", "-H", "--wrap", "true");
    assertThat(sbatch.exitCode()).isEqualTo(1);
    assertThat(sbatch.err()).isEqualTo("sbatch: error: Batch job submission failed: Invalid --nice value\n");
    LocalCluster.Result positive = cluster.as(alice, work, "sbatch", "--nice=10", "-H", "--wrap", "true");
    LocalCluster.Result byRoot = cluster.as(null, work, "sbatch", "--nice=-10", "-H", "--wrap", "true");
    assertThat(positive.exitCode()).as(positive.toString()).isZero();
    assertThat(byRoot.exitCode()).as(byRoot.toString()).isZero();
    cluster.as(null, "scancel", String.valueOf(LocalCluster.jobId(positive)),
        String.valueOf(LocalCluster.jobId(byRoot)));
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

package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.GeneratedMessageLite;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.corral.common.SlurmError;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real unprivileged user talks to the server from its own process; the server must see that
 * user's ids, whatever the client could claim.
 */
@Timeout(30)
class PeerIdentityTest {
  private Path dir;

  @BeforeEach
  void traversableDir() throws IOException {
    assumeTrue(TestUsers.canCreate(), "needs root to create a user and switch to it");
    dir = Files.createTempDirectory(Path.of("/tmp"), "corral-peer-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void cleanUp() throws IOException {
    if (dir != null) {
      try (Stream<Path> all = Files.walk(dir)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void serverSeesTheKernelIdentityOfAnUnprivilegedClient() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (ServerFixture f = new ServerFixture(dir)) {
      Process client = new ProcessBuilder(List.of("setpriv", "--reuid=" + alice.uid(),
          "--regid=" + alice.gid(), "--clear-groups",
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", copyClasspath(),
          PeerIdentityClientMain.class.getName(), f.socket.toString()))
          .directory(dir.toFile())
          .redirectErrorStream(true)
          .start();
      String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(client.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(client.exitValue()).as(output).isZero();
      assertThat(output).contains("reply from " + RecordingHandler.HOST);
      Peer peer = f.handler.lastPeer.get();
      assertThat(peer).isEqualTo(new Peer(alice.uid(), alice.gid(), alice.name(), null));
    }
  }

  /**
   * The build's classes and jars may sit where the test user cannot read (/root/.m2), so the
   * few the client needs are copied into the world-readable temp dir.
   */
  private String copyClasspath() throws IOException {
    List<String> entries = new ArrayList<>();
    Class<?>[] anchors = {RpcServer.class, PeerIdentityClientMain.class, SlurmError.class,
        GeneratedMessageLite.class};
    for (int i = 0; i < anchors.length; i++) {
      Path source = locationOf(anchors[i]);
      Path target = dir.resolve("cp" + i + (Files.isDirectory(source) ? "" : ".jar"));
      copyReadable(source, target);
      entries.add(target.toString());
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  private static Path locationOf(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void copyReadable(Path source, Path target) throws IOException {
    if (!Files.isDirectory(source)) {
      Files.copy(source, target);
      Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
      return;
    }
    try (Stream<Path> all = Files.walk(source)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path to = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
          Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
          Files.copy(p, to);
          Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
  }
}

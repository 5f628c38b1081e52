package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterKeyTest {
  @TempDir Path dir;

  @Test
  void generatesA32ByteKeyReadableOnlyByItsOwner() throws IOException {
    Path file = dir.resolve("corral.key");
    ClusterKey.generate(file);
    assertThat(Files.size(file)).isEqualTo(32);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("r--------");
    assertThat(Files.list(dir)).as("no temporary file is left behind").containsExactly(file);
  }

  @Test
  void loadedKeySignsWhatTheSameFileVerifies() throws Exception {
    Path file = dir.resolve("corral.key");
    ClusterKey.generate(file);
    Credentials a = new Credentials(ClusterKey.load(file), "a", Clock.systemUTC());
    Credentials b = new Credentials(ClusterKey.load(file), "b", Clock.systemUTC());
    assertThat(b.verify(a.seal("b", 16, new byte[] {1}))).isEqualTo("a");
  }

  @Test
  void twoGeneratedKeysDiffer() throws Exception {
    ClusterKey.generate(dir.resolve("one"));
    ClusterKey.generate(dir.resolve("two"));
    assertThat(Files.readAllBytes(dir.resolve("one")))
        .isNotEqualTo(Files.readAllBytes(dir.resolve("two")));
  }

  @Test
  void neverReplacesAnExistingKey() throws IOException {
    Path file = dir.resolve("corral.key");
    ClusterKey.generate(file);
    byte[] before = Files.readAllBytes(file);
    assertThatThrownBy(() -> ClusterKey.generate(file))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"r--r-----", "r-----r--", "rw-r--r--", "r-----rw-", "r---w----"})
  void refusesKeyOthersCanReadOrWrite(String mode) throws IOException {
    Path file = dir.resolve("corral.key");
    ClusterKey.generate(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    String octal = String.format("%04o", octal(mode));
    assertThatThrownBy(() -> ClusterKey.load(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("mode " + octal);
  }

  @Test
  void acceptsOwnerOnlyReadWriteKey() throws IOException {
    Path file = dir.resolve("corral.key");
    ClusterKey.generate(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(ClusterKey.load(file)).isNotNull();
  }

  @Test
  void refusesKeyTooShortToBeSecret() throws IOException {
    Path file = dir.resolve("short.key");
    Files.write(file, new byte[8]);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
    assertThatThrownBy(() -> ClusterKey.load(file)).hasMessageContaining("at least 16");
  }

  @Test
  void refusesKeyOwnedByAnotherUserUnlessThatUserIsSlurmUser() throws IOException {
    assumeTrue(TestUsers.canCreate(), "needs root to create a user and chown");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Path file = dir.resolve("corral.key");
    ClusterKey.generate(file);
    Files.setAttribute(file, "unix:uid", alice.uid());
    assertThatThrownBy(() -> ClusterKey.load(file))
        .hasMessageContaining(file.toString())
        .hasMessageContaining("owned by uid " + alice.uid());
    assertThat(ClusterKey.load(file, alice.uid())).isNotNull();
  }

  @Test
  void doesNotRevealTheKeyInItsText() {
    assertThat(ClusterKey.of(new byte[32]).toString()).doesNotContainPattern("[0-9a-f]{8}");
  }

  private static int octal(String mode) {
    int bits = 0;
    for (char c : mode.toCharArray()) {
      bits = (bits << 1) | (c == '-' ? 0 : 1);
    }
    return bits;
  }
}

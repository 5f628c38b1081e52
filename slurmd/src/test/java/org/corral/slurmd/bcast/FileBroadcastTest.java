package org.corral.slurmd.bcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.zip.Deflater;
import org.corral.protocol.msg.FileBcastError;
import org.corral.protocol.msg.FileBcastRequest;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Writing sbcast's blocks as the job's user: creation, --force, modes, times, and errno back. */
class FileBroadcastTest {
  private TestUsers.User bob;
  private Path dir;

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to write as another user");
    bob = TestUsers.ensure(TestUsers.BOB);
    dir = Files.createTempDirectory(Path.of("/tmp"), "bcast-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (dir != null) {
      new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor();
    }
  }

  private FileBcastRequest.Builder block(Path path, String text) {
    return FileBcastRequest.newBuilder().setPath(path.toString()).setUid(bob.uid()).setGid(bob.gid())
        .setData(ByteString.copyFromUtf8(text)).setDataLength(text.length()).setMode(0640);
  }

  @Test
  void blocksMakeTheFileAsTheUserWithTheSourcesModeAndTimes() throws Exception {
    Path f = dir.resolve("a.out");
    assertThat(FileBroadcast.write(block(f, "hello ").setFirst(true).build())).isEmpty();
    assertThat(FileBroadcast.write(block(f, "world").setOffset(6).setLast(true).setPreserve(true)
        .setAtime(1_000_000).setMtime(1_577_934_245).build())).isEmpty();
    assertThat(Files.readString(f)).isEqualTo("hello world");
    assertThat(Files.getAttribute(f, "unix:uid")).isEqualTo(bob.uid());
    assertThat(Files.getAttribute(f, "unix:mode")).isEqualTo(0100640);
    assertThat(Files.getLastModifiedTime(f).toMillis()).isEqualTo(1_577_934_245_000L);
  }

  @Test
  void anExistingFileIsRefusedUnlessForcedAndErrorsCarryErrno() throws Exception {
    Path f = dir.resolve("exists");
    Files.writeString(f, "old");
    Optional<FileBcastError> e = FileBroadcast.write(block(f, "new").setFirst(true).setLast(true).build());
    assertThat(e).map(FileBcastError::getErrno).contains(17);
    assertThat(e).map(FileBcastError::getMessage).contains("File exists");
    assertThat(FileBroadcast.write(block(f, "new").setFirst(true).setLast(true).setForce(true).build())).isEmpty();
    assertThat(Files.readString(f)).isEqualTo("new");
  }

  @Test
  void theUserCannotWriteWhereOnlyRootMay() throws Exception {
    Path closed = Files.createDirectory(dir.resolve("root-only"));
    Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
    Optional<FileBcastError> e = FileBroadcast.write(block(closed.resolve("x"), "x").setFirst(true).setLast(true)
        .build());
    assertThat(e).map(FileBcastError::getErrno).contains(13);
    assertThat(e).map(FileBcastError::getMessage).contains("Permission denied");
    assertThat(closed.resolve("x")).doesNotExist();
  }

  @Test
  void compressedBlocksAreInflatedAndCorruptOrOversizedOnesRefused() throws Exception {
    byte[] text = "z".repeat(50_000).getBytes(StandardCharsets.UTF_8);
    Deflater d = new Deflater();
    d.setInput(text);
    d.finish();
    byte[] buf = new byte[1000];
    int n = d.deflate(buf);
    d.end();
    Path f = dir.resolve("c");
    FileBcastRequest.Builder b = block(f, "").setData(ByteString.copyFrom(buf, 0, n)).setCompressed(true)
        .setDataLength(text.length).setFirst(true).setLast(true);
    assertThat(FileBroadcast.write(b.build())).isEmpty();
    assertThat(Files.readAllBytes(f)).isEqualTo(text);
    assertThat(FileBroadcast.write(b.setDataLength(text.length + 1).setForce(true).build()))
        .map(FileBcastError::getErrno).contains(22);
    assertThat(FileBroadcast.write(b.setDataLength(FileBroadcast.MAX_BLOCK + 1).build()))
        .map(FileBcastError::getErrno).contains(22);
    assertThat(FileBroadcast.write(block(Path.of("relative"), "x").setFirst(true).build()))
        .map(FileBcastError::getErrno).contains(22);
  }
}

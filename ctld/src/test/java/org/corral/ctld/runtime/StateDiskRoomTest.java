package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.corral.common.SlurmError;
import org.junit.jupiter.api.Test;

class StateDiskRoomTest {
  private final AtomicLong free = new AtomicLong();

  private StateDiskRoom room() {
    return new StateDiskRoom(Path.of("/state"), 64L << 20, free::get, System::nanoTime);
  }

  @Test
  void aSubmissionThatWouldEatIntoTheReserveIsRefusedWithSlurmsError() {
    free.set(100L << 20);
    assertThatCode(() -> room().checkRoomFor(1 << 20)).doesNotThrowAnyException();
    assertThatThrownBy(() -> room().checkRoomFor(20L << 20)) // script and record: 40 MiB of 100
        .isInstanceOf(SlurmException.class)
        .extracting(e -> ((SlurmException) e).error()).isEqualTo(SlurmError.WRITING_TO_FILE);
    free.set(10L << 20);
    assertThatThrownBy(() -> room().checkRoomFor(100)).isInstanceOf(SlurmException.class)
        .hasMessage("I/O error writing script/environment to file");
  }

  @Test
  void notKnowingTheFreeSpaceRefusesNothing() {
    StateDiskRoom unknown = new StateDiskRoom(Path.of("/state"), 64L << 20,
        () -> { throw new IOException("statfs failed"); }, System::nanoTime);
    assertThatCode(() -> unknown.checkRoomFor(1 << 20)).doesNotThrowAnyException();
  }

  /** On a real, small file system (a tmpfs mounted for the test): filled, then freed. */
  @Test
  void aFullTmpfsRefusesSubmissionsUntilSpaceIsFreed() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "mounting needs root");
    Path mnt = Files.createTempDirectory("state-tmpfs");
    Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=80m", "tmpfs", mnt.toString())
        .redirectErrorStream(true).start();
    assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here");
    try {
      StateDiskRoom room = StateDiskRoom.of(mnt);
      room.checkRoomFor(4096);
      Path filler = mnt.resolve("filler");
      Files.write(filler, new byte[20 << 20]);
      assertThatThrownBy(() -> room.checkRoomFor(4096)).isInstanceOf(SlurmException.class);
      Files.delete(filler);
      assertThatCode(() -> room.checkRoomFor(4096)).doesNotThrowAnyException();
    } finally {
      new ProcessBuilder("umount", mnt.toString()).start().waitFor();
      Files.deleteIfExists(mnt);
    }
  }
}

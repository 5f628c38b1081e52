package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Character devices standing in for GPUs (no GPU here): copies of /dev/full (1,7) and
 * /dev/random (1,8), which open without a driver of their own, in a directory of their own.
 */
final class FakeDevices {
  static final int FULL = 7;
  static final int RANDOM = 8;

  private FakeDevices() {}

  /** A new world-readable directory under /tmp for the devices. */
  static Path directory(String prefix) throws Exception {
    Path dir = Files.createTempDirectory(Path.of("/tmp"), prefix);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir;
  }

  /** A character device 1:minor, readable and writable by all (the device cgroup is what refuses). */
  static void mknod(Path file, int minor) throws Exception {
    Process p = new ProcessBuilder("mknod", "-m", "666", file.toString(), "c", "1", String.valueOf(minor))
        .inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }

  /** Removes the directory and its devices; nothing when it is null. */
  static void remove(Path dir) throws Exception {
    if (dir == null) {
      return;
    }
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
    }
    Files.deleteIfExists(dir);
  }
}

package org.corral.protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The directory of a daemon's local socket, which every user's commands must reach. The daemons
 * run with umask 077 (their files are theirs alone), so one they make is opened (0755) here.
 */
public final class SocketDirectory {
  private SocketDirectory() {}

  public static void ensure(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }
}

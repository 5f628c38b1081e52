package org.corral.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import org.corral.common.TextFiles;

/** Facts about a process read from its /proc directory. */
public final class ProcessFacts {
  private ProcessFacts() {}

  /** Whether the process's stdin (fd 0) is a terminal. */
  public static boolean stdinIsTerminal(Path procDir) {
    try {
      String target = Files.readSymbolicLink(procDir.resolve("fd/0")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /** The process's umask as /proc/PID/status gives it ("0022"); null when it cannot be read. */
  public static String umask(Path procDir) {
    try {
      for (String line : TextFiles.lines(TextFiles.read(procDir.resolve("status")))) {
        if (line.startsWith("Umask:")) {
          return line.substring("Umask:".length()).strip();
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /** The mode a file the process creates with mode 0666 gets under its umask. */
  public static Optional<Set<PosixFilePermission>> modeForNewFile(Path procDir) {
    String umask = umask(procDir);
    if (umask == null) {
      return Optional.empty();
    }
    int mode = 0666 & ~Integer.parseInt(umask, 8);
    StringBuilder s = new StringBuilder();
    for (int bit = 8; bit >= 0; bit--) {
      s.append((mode & (1 << bit)) == 0 ? '-' : "rwx".charAt((8 - bit) % 3));
    }
    return Optional.of(PosixFilePermissions.fromString(s.toString()));
  }
}

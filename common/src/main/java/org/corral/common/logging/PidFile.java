package org.corral.common.logging;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** A daemon's pid file: written at start (atomically), removed at a clean stop. */
public final class PidFile {
  private PidFile() {}

  public static void write(Path file) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Removes the file if it still names this process (a successor may have replaced it). */
  public static void remove(Path file) {
    try {
      String s = Files.readString(file).trim();
      if (s.equals(String.valueOf(ProcessHandle.current().pid()))) {
        Files.deleteIfExists(file);
      }
    } catch (IOException ignored) {
      // already gone
    }
  }
}

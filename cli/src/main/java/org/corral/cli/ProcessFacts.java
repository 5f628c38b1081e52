package org.corral.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
}

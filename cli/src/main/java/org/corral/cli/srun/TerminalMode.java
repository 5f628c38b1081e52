package org.corral.cli.srun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * srun's terminal for --pty: whether stdin is one, and raw mode while the step runs (keys go
 * to the remote pseudo-terminal as typed; it echoes and handles Ctrl-C itself). Java has no
 * termios, so stty(1) does the work on /dev/tty, and the saved settings are restored at exit.
 */
final class TerminalMode {

  private String saved;

  /** Puts the terminal in raw mode; false when it could not. */
  boolean enterRaw() {
    saved = stty("-g");
    return saved != null && stty("raw", "-echo") != null;
  }

  void restore() {
    if (saved != null) {
      stty(saved);
      saved = null;
    }
  }

  private static String stty(String... args) {
    String[] cmd = new String[args.length + 1];
    cmd[0] = "stty";
    System.arraycopy(args, 0, cmd, 1, args.length);
    try {
      Process p = new ProcessBuilder(cmd).redirectInput(new java.io.File("/dev/tty"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}

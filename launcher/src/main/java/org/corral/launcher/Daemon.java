package org.corral.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One daemon of a local cluster: how to start it, its pid file, port and log. A pid counts as
 * ours only while that process's command line still names the same program (pids get reused).
 */
record Daemon(String label, List<String> command, Path pidFile, Path output, String marker, int port,
    String log) {

  Optional<ProcessHandle> running() {
    try {
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(this::isOurs);
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private boolean isOurs(ProcessHandle p) {
    try {
      String cmdline = Files.readString(Path.of("/proc", String.valueOf(p.pid()), "cmdline"))
          .replace('\0', ' ');
      return cmdline.contains(marker);
    } catch (IOException e) {
      return false;
    }
  }

  /** Starts it in a session of its own, detached from this terminal, output to its .out file. */
  Process start() throws IOException {
    Files.createDirectories(output.getParent());
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add("setsid");
    cmd.addAll(command);
    return new ProcessBuilder(cmd)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
        .redirectErrorStream(true)
        .start();
  }

  /** SIGTERM, then SIGKILL if it is still there after the grace period. Returns whether it ran. */
  boolean stop(long graceMillis) throws InterruptedException {
    Optional<ProcessHandle> p = running();
    if (p.isEmpty()) {
      return false;
    }
    p.get().destroy();
    long deadline = System.nanoTime() + graceMillis * 1_000_000;
    while (p.get().isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    if (p.get().isAlive()) {
      p.get().destroyForcibly();
    }
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException ignored) {
      // the daemon removed it itself
    }
    return true;
  }
}

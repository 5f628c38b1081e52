package org.corral.slurmd.launch;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Sends a signal to a whole process group through kill(1): the JDK can signal one process,
 * not a group, and only with TERM or KILL.
 */
public final class ProcessGroupSignaller {
  public static final int SIGKILL = 9;
  public static final int SIGTERM = 15;
  public static final int SIGCONT = 18;

  private ProcessGroupSignaller() {}

  /** True when kill(1) delivered it; false when the group no longer exists. */
  public static boolean signal(long processGroup, int signal) throws IOException {
    if (processGroup <= 1) {
      throw new IllegalArgumentException("refusing to signal process group " + processGroup);
    }
    return kill("-" + processGroup, signal);
  }

  /** Signals one process (the batch shell), not its group. */
  static boolean signalProcess(long pid, int signal) throws IOException {
    if (pid <= 1) {
      throw new IllegalArgumentException("refusing to signal process " + pid);
    }
    return kill(Long.toString(pid), signal);
  }

  private static boolean kill(String target, int signal) throws IOException {
    if (signal < 1 || signal > 64) {
      throw new IllegalArgumentException("not a signal number: " + signal);
    }
    ProcessBuilder kill = CleanProcess.builder(
        List.of("kill", "-s", Integer.toString(signal), "--", target));
    kill.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    Process process = kill.start();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("kill(1) did not finish");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while signalling", e);
    }
    return process.exitValue() == 0;
  }
}

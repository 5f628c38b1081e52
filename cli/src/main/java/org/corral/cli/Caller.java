package org.corral.cli;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.corral.cli.submit.SignalQueue;

/**
 * The process a command runs for: its working directory, stdin, process id, terminal and
 * signals. In a JVM of its own ({@link #thisProcess}) that is this process; in the command
 * server it is the front end that the user started, whose facts came with the call. Commands
 * reach these only through here, never through process-wide state, so that concurrent calls in
 * one server never see each other's.
 *
 * @param cwd the caller's working directory (relative paths resolve against it)
 * @param stdin the caller's standard input
 * @param pid the caller's process id (srun's and salloc's, as the controller records it)
 * @param stdinTerminal whether the caller's stdin is a terminal
 * @param signals how a command catches the caller's signals
 */
public record Caller(Path cwd, Supplier<InputStream> stdin, long pid, boolean stdinTerminal, Signals signals) {

  /** Makes a queue of the caller's signals: the given ones are queued instead of ending it. */
  @FunctionalInterface
  public interface Signals {
    SignalQueue catching(int... signals);
  }

  /** This JVM's own process, for a command run in a JVM of its own. */
  public static Caller thisProcess() {
    return new Caller(Path.of(System.getProperty("user.dir")).toAbsolutePath(), () -> System.in,
        ProcessHandle.current().pid(), ProcessFacts.stdinIsTerminal(Path.of("/proc/self")),
        SignalQueue::catching);
  }

  /** The caller's /proc directory (its limits, umask, nice value, session). */
  public Path procDir() {
    return Path.of("/proc", Long.toString(pid));
  }

  /** A path as the caller means it: relative ones against its working directory. */
  public Path resolve(String path) {
    return cwd.resolve(path);
  }
}

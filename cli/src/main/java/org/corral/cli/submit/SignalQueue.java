package org.corral.cli.submit;

import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Signals that reached this process, as numbers in arrival order, for a command's main loop
 * to act on (srun's Ctrl-C handling, forwarding to tasks). Tests post signals themselves.
 */
public final class SignalQueue {

  public static final int SIGHUP = 1;
  public static final int SIGINT = 2;
  public static final int SIGKILL = 9;
  public static final int SIGUSR1 = 10;
  public static final int SIGUSR2 = 12;
  public static final int SIGALRM = 14;
  public static final int SIGTERM = 15;
  public static final int SIGCONT = 18;

  private static final Map<Integer, String> NAMES = Map.of(
      SIGHUP, "HUP", SIGINT, "INT", SIGUSR1, "USR1", SIGUSR2, "USR2", SIGALRM, "ALRM",
      SIGTERM, "TERM", SIGCONT, "CONT");

  private final BlockingQueue<Integer> queue = new LinkedBlockingQueue<>();

  /** A queue nothing feeds but {@link #post} (tests). */
  public SignalQueue() {}

  /**
   * A queue fed by this process's signals: the given ones no longer have their default effect
   * (ending the JVM) but are queued instead.
   */
  public static SignalQueue catching(int... signals) {
    SignalQueue q = new SignalQueue();
    for (int s : signals) {
      String name = NAMES.get(s);
      if (name == null) {
        continue;
      }
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> q.post(sig.getNumber()));
      } catch (IllegalArgumentException e) {
        // Taken by the JVM on this platform: that signal keeps its default effect.
      }
    }
    return q;
  }

  public void post(int signal) {
    queue.add(signal);
  }

  /** The next signal, waiting up to the given time; null when none came. */
  public Integer poll(long timeoutMs) {
    try {
      return queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}

package org.corral.common;

import java.lang.System.Logger.Level;

/**
 * A daemon never runs on half alive: a thread it cannot do without (the state writer, the
 * scheduler, a periodic loop) that dies of an Error (out of memory, a stack overflow, a bug in
 * the JVM's view) is logged and the process exits with {@link #EXIT_STATUS}, so a supervisor
 * (systemd, corral) restarts it and recovery brings it back whole. Exceptions a loop can go on
 * after are its own business; this is for what it cannot.
 */
public final class FailFast {
  /** EX_SOFTWARE: an internal error. */
  public static final int EXIT_STATUS = 70;
  private static final System.Logger LOG = System.getLogger(FailFast.class.getName());

  private FailFast() {}

  /** Makes every thread's uncaught throwable fatal, after logging it. */
  public static void install() {
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> halt("thread " + thread.getName(), e));
  }

  /** Logs what died and why, then ends the process at once (no shutdown hooks: they may hang). */
  public static void halt(String what, Throwable cause) {
    try {
      String line = "fatal: " + what + " died (" + cause + "), exiting with status " + EXIT_STATUS
          + " so that the daemon is restarted";
      LOG.log(Level.ERROR, line, cause);
      System.err.println(line);
      System.err.flush();
    } catch (Throwable ignored) {
      // out of memory even for the message: exit anyway
    }
    Runtime.getRuntime().halt(EXIT_STATUS);
  }
}

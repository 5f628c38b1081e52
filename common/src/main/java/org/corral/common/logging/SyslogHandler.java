package org.corral.common.logging;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.ErrorManager;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Log records to syslog (SlurmctldSyslogDebug, SlurmdSyslogDebug, slurmdbd's DebugLevelSyslog),
 * facility daemon, through one long-lived util-linux {@code logger} that reads our lines (each
 * prefixed with its priority) and hands them to the local syslog socket, journald's included.
 * The JDK cannot send to a Unix datagram socket, and a process per message would be too dear.
 * When logger is missing or dies, records go on to the daemon's log file only; it is restarted
 * at the next record.
 */
final class SyslogHandler extends Handler {
  private static final int FACILITY_DAEMON = 3;

  private final List<String> command;
  private Process logger;
  private OutputStream in;

  /**
   * @param ident the program name each message carries (slurmctld)
   * @param socket the syslog socket to write to (a stream socket), or null for the system's
   */
  SyslogHandler(String ident, String socket) {
    List<String> cmd = new ArrayList<>(List.of("logger", "--prio-prefix", "-t", ident,
        "--id=" + ProcessHandle.current().pid()));
    if (socket != null) {
      cmd.addAll(List.of("-u", socket, "-T"));
    }
    this.command = List.copyOf(cmd);
  }

  /** Slurm's debug level words as java.util.logging levels (quiet: nothing). */
  static Level level(String slurmLevel) {
    return switch (slurmLevel.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "quiet" -> Level.OFF;
      case "fatal", "error" -> Level.SEVERE;
      case "info" -> Level.INFO;
      case "verbose", "debug", "debug2", "debug3", "debug4", "debug5" -> Level.FINE;
      default -> throw new IllegalArgumentException("invalid syslog debug level '" + slurmLevel + "'");
    };
  }

  static int severity(Level l) {
    int v = l.intValue();
    return v >= Level.SEVERE.intValue() ? 3 : v >= Level.WARNING.intValue() ? 4 : v >= Level.INFO.intValue() ? 6 : 7;
  }

  @Override
  public synchronized void publish(LogRecord r) {
    if (!isLoggable(r)) {
      return;
    }
    String text = getFormatter() == null ? r.getMessage() : getFormatter().formatMessage(r);
    String line = "<" + (FACILITY_DAEMON * 8 + severity(r.getLevel())) + ">"
        + text.replace('\n', ' ') + "\n";
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        if (in == null || !logger.isAlive()) {
          logger = new ProcessBuilder(command).redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
          in = logger.getOutputStream();
        }
        in.write(line.getBytes(StandardCharsets.UTF_8));
        in.flush();
        return;
      } catch (IOException e) {
        in = null;
        if (attempt == 1) {
          reportError("cannot write to syslog through logger: " + e.getMessage(), e, ErrorManager.WRITE_FAILURE);
        }
      }
    }
  }

  @Override
  public void flush() {
  }

  @Override
  public synchronized void close() {
    if (in != null) {
      try {
        in.close();
        logger.waitFor(2, java.util.concurrent.TimeUnit.SECONDS);
      } catch (IOException | InterruptedException e) {
        logger.destroy();
      }
      in = null;
    }
  }
}

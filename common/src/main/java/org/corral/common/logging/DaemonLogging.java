package org.corral.common.logging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.corral.common.PrivateFiles;

/**
 * Daemon logs in Slurm's shape: {@code [2026-11-23T12:00:00.123] error: text}, to the configured
 * file (appended) or to stderr. Daemons log through System.Logger, which lands here.
 */
public final class DaemonLogging {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");

  private DaemonLogging() {}

  public static void setup(Path file, boolean verbose) throws IOException {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    Handler h;
    if (file != null) {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      // Logs name users, jobs and paths: the daemon's alone, as Slurm's are
      PrivateFiles.ensurePrivate(file);
      h = new FileHandler(file.toString(), true);
    } else {
      h = new ConsoleHandler();
    }
    h.setFormatter(new SlurmFormat());
    Level level = verbose ? Level.FINE : Level.INFO;
    h.setLevel(level);
    root.setLevel(level);
    root.addHandler(h);
  }

  /** One line per record, as Slurm writes its logs. */
  static final class SlurmFormat extends Formatter {
    @Override
    public String format(LogRecord r) {
      String prefix = r.getLevel().intValue() >= Level.SEVERE.intValue() ? "error: "
          : r.getLevel().intValue() >= Level.WARNING.intValue() ? "warning: "
          : r.getLevel().intValue() < Level.INFO.intValue() ? "debug:  " : "";
      StringBuilder sb = new StringBuilder()
          .append('[').append(LocalDateTime.ofInstant(r.getInstant(), ZoneId.systemDefault()).format(TIME))
          .append("] ").append(prefix).append(formatMessage(r)).append('\n');
      if (r.getThrown() != null) {
        var sw = new java.io.StringWriter();
        r.getThrown().printStackTrace(new java.io.PrintWriter(sw));
        sb.append(sw);
      }
      return sb.toString();
    }
  }
}

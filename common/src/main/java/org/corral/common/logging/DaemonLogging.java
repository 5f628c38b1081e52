package org.corral.common.logging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.corral.common.PrivateFiles;
import org.corral.common.config.ConfKey;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;

/**
 * Daemon logs in Slurm's shape: {@code [2026-11-23T12:00:00.123] error: text}, to the configured
 * file (appended) or to stderr. Daemons log through System.Logger, which lands here.
 */
public final class DaemonLogging {
  private DaemonLogging() {}

  /**
   * How a daemon logs beyond its file: LogTimeFormat, and the syslog level (SlurmctldSyslogDebug
   * and its kin; null: no syslog) under the daemon's name.
   *
   * @param syslogSocket a stream socket standing for syslog's (tests), or null for the system's
   */
  public record Options(LogTime time, String syslogLevel, String ident, String syslogSocket) {
    public static final Options DEFAULT = new Options(LogTime.DEFAULT, null, null, null);

    /** From the configuration's words; a bad value is an IllegalArgumentException naming it. */
    public static Options of(String logTimeFormat, String syslogLevel, String ident) {
      if (syslogLevel != null) {
        SyslogHandler.level(syslogLevel); // checked now, not at the first record
      }
      return new Options(LogTime.parse(logTimeFormat), syslogLevel, ident, null);
    }

    /** A daemon's options from slurm.conf: LogTimeFormat and its syslog key. */
    public static Options of(SlurmConfig cfg, ConfKey<String> syslogKey, String ident) throws ConfigException {
      try {
        return of(cfg.text(SlurmConfKeys.LOG_TIME_FORMAT).orElse(null), cfg.text(syslogKey).orElse(null), ident);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(cfg.path(), 0, syslogKey.name(), e.getMessage());
      }
    }
  }

  public static void setup(Path file, boolean verbose) throws IOException {
    setup(file, verbose, Options.DEFAULT);
  }

  public static void setup(Path file, boolean verbose, Options options) throws IOException {
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
    h.setFormatter(new SlurmFormat(options.time()));
    Level level = verbose ? Level.FINE : Level.INFO;
    h.setLevel(level);
    root.setLevel(level);
    root.addHandler(h);
    if (options.syslogLevel() != null) {
      Level syslog = SyslogHandler.level(options.syslogLevel());
      if (syslog != Level.OFF) {
        Handler s = new SyslogHandler(options.ident(), options.syslogSocket());
        s.setFormatter(new SlurmFormat(options.time()));
        s.setLevel(syslog);
        if (syslog.intValue() < root.getLevel().intValue()) {
          root.setLevel(syslog);
        }
        root.addHandler(s);
      }
    }
  }

  /** One line per record, as Slurm writes its logs. */
  static final class SlurmFormat extends Formatter {
    private final LogTime time;

    SlurmFormat(LogTime time) {
      this.time = time;
    }

    @Override
    public String format(LogRecord r) {
      String prefix = r.getLevel().intValue() >= Level.SEVERE.intValue() ? "error: "
          : r.getLevel().intValue() >= Level.WARNING.intValue() ? "warning: "
          : r.getLevel().intValue() < Level.INFO.intValue() ? "debug:  " : "";
      StringBuilder sb = new StringBuilder()
          .append('[').append(time.format(r.getInstant(), ZoneId.systemDefault())).append("] ");
      if (time.threadId()) {
        sb.append('[').append(r.getLongThreadID()).append("] ");
      }
      sb.append(prefix).append(formatMessage(r)).append('\n');
      if (r.getThrown() != null) {
        var sw = new java.io.StringWriter();
        r.getThrown().printStackTrace(new java.io.PrintWriter(sw));
        sb.append(sw);
      }
      return sb.toString();
    }
  }
}

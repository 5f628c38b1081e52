package org.corral.common.config;

import java.nio.file.Path;

/**
 * A configuration file that cannot be used: the message names the file and line, and the key
 * when one is at fault ({@code /etc/slurm/slurm.conf line 12: invalid value for CPUs: 'abc'}).
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final int line;
  private final String key;

  /**
   * @param file the file at fault
   * @param line its 1-based line, 0 when the problem is not on one line (e.g. unreadable file)
   * @param key the key at fault, or null
   * @param detail what is wrong, without the file and line
   */
  public ConfigException(Path file, int line, String key, String detail) {
    this(file, line, key, detail, null);
  }

  public ConfigException(Path file, int line, String key, String detail, Throwable cause) {
    super(file + (line > 0 ? " line " + line : "") + ": " + detail, cause);
    this.file = file;
    this.line = line;
    this.key = key;
  }

  /** An invalid value for a known key, with Slurm-like wording. */
  static ConfigException invalidValue(Path file, int line, String key, String value) {
    return new ConfigException(file, line, key, "invalid value for " + key + ": '" + value + "'");
  }

  public Path file() {
    return file;
  }

  /** 1-based line number, 0 when not tied to a line. */
  public int line() {
    return line;
  }

  /** The key at fault, or null. */
  public String key() {
    return key;
  }
}

package org.corral.dbd.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.corral.common.config.ConfLine;
import org.corral.common.config.ConfReader;
import org.corral.common.config.ConfigException;

/**
 * slurmdbd.conf. It holds the database password, so, as Slurm does, slurmdbd refuses a file
 * that group or others may read. Storage types: accounting_storage/mysql (MariaDB or MySQL),
 * accounting_storage/pgsql (PostgreSQL) and accounting_storage/sqlite (an embedded file at
 * StorageLoc: the default, needing no server).
 */
public final class DbdConfig {
  public static final Path DEFAULT_PATH = Path.of("/etc/slurm/slurmdbd.conf");
  private static final Set<String> KNOWN = Set.of("authtype", "authinfo", "authalttypes",
      "authaltparameters", "dbdhost", "dbdaddr", "dbdbackuphost", "dbdport", "slurmuser",
      "storagetype", "storagehost", "storageport", "storageuser", "storagepass", "storageloc",
      "storageparameters", "pidfile", "logfile", "debuglevel", "purgejobafter", "purgestepafter",
      "purgeeventafter", "purgesuspendafter", "purgeresvafter", "purgetxnafter", "purgeusageafter",
      "archivedir", "archivejobs", "archivesteps", "archiveevents", "archivesuspend", "archiveresvs",
      "archivetxn", "archiveusage", "archivescript", "trackwckey", "tracksloppy", "privatedata",
      "messagetimeout", "commitdelay", "logtimeformat", "defaultqos", "parameters", "dbdbackupaddr",
      "maxquerytimerange", "allowresvs", "debugflags", "pluginDir".toLowerCase(Locale.ROOT));

  /** The database behind slurmdbd. */
  public enum Storage { SQLITE, MYSQL, PGSQL }

  private final Path path;
  private final Map<String, String> values = new LinkedHashMap<>();
  private final List<String> warnings = new java.util.ArrayList<>();

  private DbdConfig(Path path, List<ConfLine> lines) throws ConfigException {
    this.path = path;
    for (ConfLine l : lines) {
      for (var pair : l.pairs()) {
        String key = pair.key().toLowerCase(Locale.ROOT);
        if (!KNOWN.contains(key)) {
          warnings.add(path.getFileName() + " line " + l.line() + ": unknown key " + pair.key());
        }
        values.put(key, pair.value());
      }
    }
    storage();
    port();
    privateData();
  }

  /** PrivateData: what plain users may not read (slurmdbd.conf(5)); an unknown word is an error. */
  public org.corral.common.config.PrivateData privateData() throws ConfigException {
    try {
      return org.corral.common.config.PrivateData.parse(get("PrivateData").orElse(null));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(path, 0, "PrivateData", "PrivateData: " + e.getMessage());
    }
  }

  /** Reads and checks the file: it must not be readable by group or others. */
  public static DbdConfig load(Path file) throws ConfigException {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.contains(PosixFilePermission.GROUP_READ) || perms.contains(PosixFilePermission.OTHERS_READ)
          || perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new ConfigException(file, 0, null, "slurmdbd.conf file " + file + " should be 600 is "
            + octal(perms) + " accessible for group or others");
      }
    } catch (IOException e) {
      throw new ConfigException(file, 0, null, "cannot read: " + e.getMessage(), e);
    }
    return new DbdConfig(file, ConfReader.read(file));
  }

  /** Parses text as the file {@code nominal} (tests; no permission check). */
  public static DbdConfig parse(String text, Path nominal) throws ConfigException {
    return new DbdConfig(nominal, ConfReader.parse(text, nominal));
  }

  private static String octal(Set<PosixFilePermission> perms) {
    int mode = 0;
    for (PosixFilePermission p : perms) {
      mode |= 1 << (8 - p.ordinal());
    }
    return Integer.toOctalString(mode);
  }

  public Path path() {
    return path;
  }

  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key.toLowerCase(Locale.ROOT)));
  }

  public Storage storage() throws ConfigException {
    String t = get("StorageType").orElse("accounting_storage/sqlite").trim().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "accounting_storage/sqlite" -> Storage.SQLITE;
      case "accounting_storage/mysql" -> Storage.MYSQL;
      case "accounting_storage/pgsql" -> Storage.PGSQL;
      default -> throw new ConfigException(path, 0, "StorageType", "unsupported value \"" + t
          + "\" (accounting_storage/sqlite, accounting_storage/mysql or accounting_storage/pgsql)");
    };
  }

  public int port() throws ConfigException {
    String p = get("DbdPort").orElse("6819").trim();
    try {
      int v = Integer.parseInt(p);
      if (v >= 1 && v <= 65535) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(path, 0, "DbdPort", "invalid port \"" + p + "\"");
  }

  public String dbdAddr() {
    return get("DbdAddr").or(() -> get("DbdHost")).orElse("0.0.0.0");
  }

  public String slurmUser() {
    return get("SlurmUser").orElse("root");
  }

  public Path pidFile() {
    return Path.of(get("PidFile").orElse("/var/run/slurmdbd.pid"));
  }

  public Optional<Path> logFile() {
    return get("LogFile").map(Path::of);
  }

  /** The cluster key authenticating the controller: slurm.key beside this file. */
  public Path keyFile() {
    return path.toAbsolutePath().resolveSibling("slurm.key");
  }

  /** The JDBC address of the configured database. */
  public String jdbcUrl() throws ConfigException {
    Storage s = storage();
    String host = get("StorageHost").orElse("localhost");
    return switch (s) {
      case SQLITE -> "jdbc:sqlite:" + get("StorageLoc").orElse("/var/spool/slurmdbd/slurm_acct_db.sqlite");
      case MYSQL -> "jdbc:mariadb://" + host + ":" + get("StoragePort").orElse("3306") + "/"
          + get("StorageLoc").orElse("slurm_acct_db");
      case PGSQL -> "jdbc:postgresql://" + host + ":" + get("StoragePort").orElse("5432") + "/"
          + get("StorageLoc").orElse("slurm_acct_db") + "?reWriteBatchedInserts=true";
    };
  }

  /** How long records are kept (Purge*After): {@code amount} hours, days or months. */
  public record PurgeAge(int amount, java.time.temporal.ChronoUnit unit) {
    /**
     * A Purge*After value: a number of months, or of hours or days with that suffix ("12hours",
     * "30days", "6month"), as slurmdbd.conf(5) and sacctmgr's archive dump have it.
     */
    public static PurgeAge parse(String value) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})\\s*([a-z]*)")
          .matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new IllegalArgumentException("invalid value \"" + value + "\"");
      }
      int n = Integer.parseInt(m.group(1));
      String unit = m.group(2);
      if (unit.isEmpty() || "months".startsWith(unit)) {
        return new PurgeAge(n, java.time.temporal.ChronoUnit.MONTHS);
      }
      if ("days".startsWith(unit)) {
        return new PurgeAge(n, java.time.temporal.ChronoUnit.DAYS);
      }
      if ("hours".startsWith(unit)) {
        return new PurgeAge(n, java.time.temporal.ChronoUnit.HOURS);
      }
      throw new IllegalArgumentException("invalid unit \"" + unit + "\" in \"" + value + "\"");
    }

    /** Records that ended before this are purged. */
    public long cutoff(java.time.Instant now, java.time.ZoneId zone) {
      return now.atZone(zone).minus(amount, unit).toEpochSecond();
    }
  }

  /**
   * A Purge*After value (PurgeJobAfter, PurgeStepAfter): a number of months, or of hours or
   * days with that suffix ("12hours", "30days", "6month"), as slurmdbd.conf(5) has it.
   */
  public Optional<PurgeAge> purgeAfter(String key) throws ConfigException {
    Optional<String> v = get(key);
    if (v.isEmpty() || v.get().isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(PurgeAge.parse(v.get()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(path, 0, key, key + ": " + e.getMessage() + " (a number of months, or NNhours, NNdays)");
    }
  }

  /** ArchiveJobs=yes with ArchiveDir: purged job records are written there first. */
  public Optional<Path> archiveDir() {
    return archives("ArchiveJobs") ? Optional.of(archiveDirSetting()) : Optional.empty();
  }

  /** Whether an Archive* flag (ArchiveJobs, ArchiveSteps, ...) is yes. */
  public boolean archives(String key) {
    return get(key).map(v -> v.trim().equalsIgnoreCase("yes")).orElse(false);
  }

  /** ArchiveDir as set (/tmp, slurmdbd.conf(5)'s default, when not). */
  public Path archiveDirSetting() {
    return Path.of(get("ArchiveDir").orElse("/tmp"));
  }

  public String storageUser() {
    return get("StorageUser").orElse("root");
  }

  public String storagePass() {
    return get("StoragePass").orElse("");
  }
}

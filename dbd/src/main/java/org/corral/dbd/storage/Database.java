package org.corral.dbd.storage;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.corral.common.PrivateFiles;
import org.corral.dbd.config.DbdConfig.Storage;
import org.flywaydb.core.Flyway;

/**
 * The accounting database: a connection pool over one of the supported databases, its schema
 * brought up to date by Flyway migrations (db/migration) when opened. The SQL is the same for
 * every database but for a few types, filled in as placeholders.
 */
public final class Database implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Database.class.getName());
  private final HikariDataSource pool;
  private final Storage storage;

  private Database(HikariDataSource pool, Storage storage) {
    this.pool = pool;
    this.storage = storage;
  }

  /**
   * Every job's record is in the SQLite file and its WAL: SlurmUser's alone (0600; SQLite gives
   * the WAL and shared-memory files the database file's mode). One left open is closed, with a
   * warning.
   */
  private static void closeToOthers(Path db) throws IOException {
    PrivateFiles.ensurePrivate(db);
    for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
      Path f = db.resolveSibling(db.getFileName() + suffix);
      if (Files.exists(f) && PrivateFiles.closeToOthers(f)) {
        LOG.log(System.Logger.Level.WARNING, f + " was readable by others: now 0600");
      }
    }
  }

  /** Opens the database at {@code jdbcUrl} and migrates its schema. */
  public static Database open(Storage storage, String jdbcUrl, String user, String password)
      throws SQLException, IOException {
    if (storage == Storage.SQLITE) {
      Path file = Path.of(jdbcUrl.substring("jdbc:sqlite:".length())).toAbsolutePath();
      Files.createDirectories(file.getParent());
      closeToOthers(file);
    }
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(jdbcUrl);
    if (storage != Storage.SQLITE) {
      hc.setUsername(user);
      hc.setPassword(password);
    }
    // SQLite allows one writer at a time: one connection, and the journal in WAL mode.
    hc.setMaximumPoolSize(storage == Storage.SQLITE ? 1 : 4);
    hc.setPoolName("slurmdbd");
    hc.setInitializationFailTimeout(-1);
    if (storage == Storage.SQLITE) {
      hc.addDataSourceProperty("journal_mode", "WAL");
      hc.addDataSourceProperty("synchronous", "NORMAL");
      hc.addDataSourceProperty("busy_timeout", "10000");
    }
    HikariDataSource ds = new HikariDataSource(hc);
    try {
      Flyway.configure().dataSource(ds).locations("classpath:db/migration")
          .placeholders(placeholders(storage)).load().migrate();
    } catch (RuntimeException e) {
      ds.close();
      throw new SQLException("cannot prepare the accounting database " + jdbcUrl + ": " + e.getMessage(), e);
    }
    return new Database(ds, storage);
  }

  static Map<String, String> placeholders(Storage s) {
    return Map.of("blob", switch (s) {
      case SQLITE -> "BLOB";
      case MYSQL -> "LONGBLOB";
      case PGSQL -> "BYTEA";
    });
  }

  public Storage storage() {
    return storage;
  }

  public DataSource dataSource() {
    return pool;
  }

  public Connection connection() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public void close() {
    pool.close();
  }
}

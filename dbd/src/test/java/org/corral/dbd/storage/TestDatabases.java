package org.corral.dbd.storage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.corral.dbd.config.DbdConfig.Storage;

/**
 * The databases storage tests run against: SQLite always (a file in a fresh directory), and
 * MariaDB (127.0.0.1:3306, root) and PostgreSQL (127.0.0.1:5432, postgres, trust) when such a
 * server answers; each test gets a database of its own, dropped afterwards. A server that does
 * not answer is skipped with the reason printed.
 */
public final class TestDatabases {
  private TestDatabases() {}

  /** One fresh, empty database. */
  public record Fresh(Storage storage, String url, String user, String password, AutoCloseable drop)
      implements AutoCloseable {
    public Database open() throws Exception {
      return Database.open(storage, url, user, password);
    }

    @Override
    public void close() throws Exception {
      drop.close();
    }

    @Override
    public String toString() {
      return storage.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The storages to run against (SQLite always; the servers that answer). */
  public static List<Storage> available() {
    List<Storage> out = new ArrayList<>(List.of(Storage.SQLITE));
    for (Storage s : List.of(Storage.MYSQL, Storage.PGSQL)) {
      try (Connection c = admin(s)) {
        out.add(s);
      } catch (SQLException e) {
        System.out.println("[dbd tests] " + s + " skipped: no server at " + adminUrl(s) + " (" + e.getMessage() + ")");
      }
    }
    return out;
  }

  public static Fresh create(Storage s) throws Exception {
    if (s == Storage.SQLITE) {
      Path dir = Files.createTempDirectory("corral-dbd");
      return new Fresh(s, "jdbc:sqlite:" + dir.resolve("acct.sqlite"), "", "", () -> {
        try (var files = Files.walk(dir)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      });
    }
    String name = "corral_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = admin(s); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name); // a generated name, not input
    }
    String url = s == Storage.MYSQL ? "jdbc:mariadb://127.0.0.1:3306/" + name
        : "jdbc:postgresql://127.0.0.1:5432/" + name;
    return new Fresh(s, url, user(s), "", () -> {
      try (Connection c = admin(s); Statement st = c.createStatement()) {
        st.execute("DROP DATABASE " + (s == Storage.PGSQL ? "IF EXISTS " + name + " WITH (FORCE)" : name));
      }
    });
  }

  private static String user(Storage s) {
    return s == Storage.MYSQL ? "root" : "postgres";
  }

  private static String adminUrl(Storage s) {
    return s == Storage.MYSQL ? "jdbc:mariadb://127.0.0.1:3306/?connectTimeout=2000"
        : "jdbc:postgresql://127.0.0.1:5432/postgres?connectTimeout=2";
  }

  private static Connection admin(Storage s) throws SQLException {
    return DriverManager.getConnection(adminUrl(s), user(s), "");
  }
}

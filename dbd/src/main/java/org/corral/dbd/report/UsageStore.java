package org.corral.dbd.report;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.dbd.storage.Database;

/**
 * The rollup tables (V3__usage.sql): the clusters' CPU counts over time, where each cluster's
 * rollups stand, and the usage rows per hour, day and month. Every statement is parameterized.
 */
final class UsageStore {
  /** A period's length: the rows' span column. */
  enum Span {
    HOUR("h"), DAY("d"), MONTH("m");

    final String code;

    Span(String code) {
      this.code = code;
    }
  }

  /** Where a cluster's rollups stand (periods before each mark are done). */
  record Marks(long hourThrough, long dayThrough, long monthThrough, long eventsThrough) {}

  /** A CPU count in effect from {@code since}. */
  record Cpus(long since, long cpus) {}

  private final Database db;

  UsageStore(Database db) {
    this.db = db;
  }

  Database database() {
    return db;
  }

  /**
   * Records that {@code cluster} has {@code cpus} CPUs (its TRES {@code tres}, nodes {@code nodes}:
   * the cluster event) from {@code since}, unless it has them already.
   */
  synchronized void registerCpus(String cluster, long cpus, String tres, String nodes, long since) throws SQLException {
    try (Connection c = db.connection()) {
      try (PreparedStatement st = c.prepareStatement("SELECT cpus, tres FROM corral_cluster_cpus WHERE cluster = ?"
          + " ORDER BY since DESC")) {
        st.setString(1, cluster);
        st.setMaxRows(1);
        try (ResultSet rs = st.executeQuery()) {
          if (rs.next() && rs.getLong(1) == cpus && rs.getString(2).equals(tres)) {
            return;
          }
        }
      }
      try (PreparedStatement st = c.prepareStatement(
          "INSERT INTO corral_cluster_cpus (cluster, since, cpus, tres, nodes) VALUES (?, ?, ?, ?, ?)")) {
        st.setString(1, cluster);
        st.setLong(2, since);
        st.setLong(3, cpus);
        st.setString(4, tres);
        st.setString(5, nodes);
        st.executeUpdate();
      }
    }
  }

  /** The cluster's CPU counts in time order. */
  List<Cpus> cpus(String cluster) throws SQLException {
    List<Cpus> out = new ArrayList<>();
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement(
            "SELECT since, cpus FROM corral_cluster_cpus WHERE cluster = ? ORDER BY since")) {
      st.setString(1, cluster);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.add(new Cpus(rs.getLong(1), rs.getLong(2)));
        }
      }
    }
    return out;
  }

  /** Every cluster slurmdbd knows of: those with job records or a CPU count. */
  List<String> clusters() throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement(
            "SELECT name FROM corral_cluster UNION SELECT cluster FROM corral_cluster_cpus ORDER BY 1")) {
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  Marks marks(Connection c, String cluster) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT hour_through, day_through, month_through, events_through"
        + " FROM corral_rollup WHERE cluster = ?")) {
      st.setString(1, cluster);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? new Marks(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)) : null;
      }
    }
  }

  Marks marks(String cluster) throws SQLException {
    try (Connection c = db.connection()) {
      return marks(c, cluster);
    }
  }

  void saveMarks(Connection c, String cluster, Marks m, boolean exists) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(exists
        ? "UPDATE corral_rollup SET hour_through = ?, day_through = ?, month_through = ?, events_through = ?"
            + " WHERE cluster = ?"
        : "INSERT INTO corral_rollup (hour_through, day_through, month_through, events_through, cluster)"
            + " VALUES (?, ?, ?, ?, ?)")) {
      st.setLong(1, m.hourThrough());
      st.setLong(2, m.dayThrough());
      st.setLong(3, m.monthThrough());
      st.setLong(4, m.eventsThrough());
      st.setString(5, cluster);
      st.executeUpdate();
    }
  }

  /**
   * Job records and node events stored since event {@code after}: the earliest submit (or event
   * start) time among them (or -1 when none) and the highest event id (or {@code after}).
   */
  record Changes(long earliestSubmit, long eventsThrough) {}

  Changes changedSince(Connection c, String cluster, long after) throws SQLException {
    // node events share the controller's event ids: one that changed makes its hours count again
    Changes jobs = changedSince(c, "SELECT MIN(submit_time), MAX(last_event), COUNT(*) FROM corral_job"
        + " WHERE cluster = ? AND last_event > ?", cluster, after);
    Changes nodes = changedSince(c, "SELECT MIN(time_start), MAX(last_event), COUNT(*) FROM corral_node_event"
        + " WHERE cluster = ? AND last_event > ?", cluster, after);
    Changes resvs = changedSince(c, "SELECT MIN(time_start), MAX(last_event), COUNT(*) FROM corral_resv"
        + " WHERE cluster = ? AND last_event > ?", cluster, after);
    long earliest = -1;
    long through = after;
    for (Changes ch : List.of(jobs, nodes, resvs)) {
      if (ch.earliestSubmit() >= 0) {
        earliest = earliest < 0 ? ch.earliestSubmit() : Math.min(earliest, ch.earliestSubmit());
      }
      through = Math.max(through, ch.eventsThrough());
    }
    return new Changes(earliest, through);
  }

  private static Changes changedSince(Connection c, String sql, String cluster, long after) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(sql)) {
      st.setString(1, cluster);
      st.setLong(2, after);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(3) == 0 ? new Changes(-1, after) : new Changes(rs.getLong(1), rs.getLong(2));
      }
    }
  }

  /** Replaces the rows of {@code span} starting in [from, to) with {@code periods}. */
  void replace(Connection c, String cluster, Span span, long from, long to, Map<Long, Usage> periods)
      throws SQLException {
    for (String table : List.of("corral_usage_cluster", "corral_usage_assoc")) {
      try (PreparedStatement st = c.prepareStatement("DELETE FROM " + table
          + " WHERE cluster = ? AND span = ? AND time_start >= ? AND time_start < ?")) {
        bindRange(st, cluster, span, from, to);
        st.executeUpdate();
      }
    }
    try (PreparedStatement cl = c.prepareStatement("INSERT INTO corral_usage_cluster (cluster, span, time_start,"
            + " cpus, alloc_secs, down_secs, pdown_secs, idle_secs, plan_secs, over_secs, total_secs)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement as = c.prepareStatement("INSERT INTO corral_usage_assoc (cluster, span, time_start,"
            + " account, user_name, alloc_secs) VALUES (?, ?, ?, ?, ?, ?)")) {
      int rows = 0;
      int assocRows = 0;
      for (Map.Entry<Long, Usage> e : periods.entrySet()) {
        Usage u = e.getValue();
        if (u.isEmpty()) {
          continue;
        }
        cl.setString(1, cluster);
        cl.setString(2, span.code);
        cl.setLong(3, e.getKey());
        cl.setLong(4, u.cpus);
        cl.setLong(5, u.alloc);
        cl.setLong(6, u.down);
        cl.setLong(7, u.plannedDown);
        cl.setLong(8, u.idle);
        cl.setLong(9, u.planned);
        cl.setLong(10, u.over);
        cl.setLong(11, u.total);
        cl.addBatch();
        rows++;
        for (Map.Entry<Usage.Assoc, Long> a : u.assocs.entrySet()) {
          as.setString(1, cluster);
          as.setString(2, span.code);
          as.setLong(3, e.getKey());
          as.setString(4, a.getKey().account());
          as.setString(5, a.getKey().user());
          as.setLong(6, a.getValue());
          as.addBatch();
          assocRows++;
        }
      }
      if (rows > 0) {
        cl.executeBatch();
      }
      if (assocRows > 0) {
        as.executeBatch();
      }
    }
  }

  /** The rows of {@code span} starting in [from, to), by period start. */
  Map<Long, Usage> read(Connection c, String cluster, Span span, long from, long to) throws SQLException {
    Map<Long, Usage> out = new TreeMap<>();
    try (PreparedStatement st = c.prepareStatement("SELECT time_start, cpus, alloc_secs, down_secs, pdown_secs,"
        + " idle_secs, plan_secs, over_secs, total_secs FROM corral_usage_cluster"
        + " WHERE cluster = ? AND span = ? AND time_start >= ? AND time_start < ?")) {
      bindRange(st, cluster, span, from, to);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          Usage u = out.computeIfAbsent(rs.getLong(1), k -> new Usage());
          u.cpus = rs.getLong(2);
          u.alloc = rs.getLong(3);
          u.down = rs.getLong(4);
          u.plannedDown = rs.getLong(5);
          u.idle = rs.getLong(6);
          u.planned = rs.getLong(7);
          u.over = rs.getLong(8);
          u.total = rs.getLong(9);
        }
      }
    }
    try (PreparedStatement st = c.prepareStatement("SELECT time_start, account, user_name, alloc_secs"
        + " FROM corral_usage_assoc WHERE cluster = ? AND span = ? AND time_start >= ? AND time_start < ?")) {
      bindRange(st, cluster, span, from, to);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.computeIfAbsent(rs.getLong(1), k -> new Usage()).addAssoc(rs.getString(2), rs.getString(3), rs.getLong(4));
        }
      }
    }
    return out;
  }

  /** Binds (cluster, span, from, to) to a statement's first four parameters. */
  private static void bindRange(PreparedStatement st, String cluster, Span span, long from, long to)
      throws SQLException {
    st.setString(1, cluster);
    st.setString(2, span.code);
    st.setLong(3, from);
    st.setLong(4, to);
  }
}

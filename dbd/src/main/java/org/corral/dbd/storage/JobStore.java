package org.corral.dbd.storage;

import com.google.protobuf.InvalidProtocolBufferException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;

/**
 * Job records in the database. Storing is idempotent and ordered: each row remembers the last
 * event applied to it, so an event repeated (the controller resends what it was not sure was
 * stored) or older than the row changes nothing. Every statement is parameterized.
 */
public final class JobStore {
  private final Database db;

  public JobStore(Database db) {
    this.db = db;
  }

  /**
   * Stores a batch of events in one transaction.
   *
   * @return the highest event id now durable (the last of the batch)
   */
  public synchronized long store(String cluster, List<AcctEvent> events) throws SQLException {
    try (Connection c = db.connection()) {
      c.setAutoCommit(false);
      try {
        ensureCluster(c, cluster);
        long through = 0;
        for (AcctEvent e : events) {
          apply(c, cluster, e);
          through = Math.max(through, e.getEventId());
        }
        try (PreparedStatement st = c.prepareStatement(
            "UPDATE corral_cluster SET stored_through = ? WHERE name = ? AND stored_through < ?")) {
          st.setLong(1, through);
          st.setString(2, cluster);
          st.setLong(3, through);
          st.executeUpdate();
        }
        c.commit();
        return through;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  private static void ensureCluster(Connection c, String cluster) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM corral_cluster WHERE name = ?")) {
      st.setString(1, cluster);
      try (ResultSet rs = st.executeQuery()) {
        if (rs.next()) {
          return;
        }
      }
    }
    try (PreparedStatement st = c.prepareStatement(
        "INSERT INTO corral_cluster (name, created, stored_through) VALUES (?, ?, 0)")) {
      st.setString(1, cluster);
      st.setLong(2, System.currentTimeMillis() / 1000);
      st.executeUpdate();
    }
  }

  private static void apply(Connection c, String cluster, AcctEvent e) throws SQLException {
    AcctJob j = e.getJob();
    Long last = null;
    try (PreparedStatement st = c.prepareStatement(
        "SELECT last_event FROM corral_job WHERE cluster = ? AND job_id = ? AND submit_time = ?")) {
      st.setString(1, cluster);
      st.setLong(2, j.getJobId());
      st.setLong(3, j.getSubmitTime());
      try (ResultSet rs = st.executeQuery()) {
        if (rs.next()) {
          last = rs.getLong(1);
        }
      }
    }
    if (last != null && last >= e.getEventId()) {
      return; // already stored, or a newer state is
    }
    String sql = last == null
        ? "INSERT INTO corral_job (array_job_id, array_task_id, user_id, account, partition_name, job_name,"
            + " state, start_time, end_time, alloc_cpus, last_event, record, cluster, job_id, submit_time)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        : "UPDATE corral_job SET array_job_id = ?, array_task_id = ?, user_id = ?, account = ?,"
            + " partition_name = ?, job_name = ?, state = ?, start_time = ?, end_time = ?, alloc_cpus = ?,"
            + " last_event = ?, record = ? WHERE cluster = ? AND job_id = ? AND submit_time = ?";
    try (PreparedStatement st = c.prepareStatement(sql)) {
      st.setLong(1, j.getArrayJobId());
      st.setLong(2, j.getArrayTaskId());
      st.setLong(3, j.getUserId());
      st.setString(4, j.getAccount());
      st.setString(5, j.getPartition());
      st.setString(6, j.getName());
      st.setInt(7, j.getStateValue());
      st.setLong(8, j.getStartTime());
      st.setLong(9, j.getEndTime());
      st.setLong(10, j.getNumCpus());
      st.setLong(11, e.getEventId());
      st.setBytes(12, j.toBuilder().setCluster(cluster).build().toByteArray());
      st.setString(13, cluster);
      st.setLong(14, j.getJobId());
      st.setLong(15, j.getSubmitTime());
      st.executeUpdate();
    }
  }

  /**
   * Job records matching a selection made of SQL conditions on the row's columns, in job id
   * order (then submit time).
   */
  public List<AcctJob> find(JobSelection sel) throws SQLException {
    return find(sel, null, 0);
  }

  /** Where a page of job records ended: the last row's key. */
  public record Cursor(long jobId, long submitTime) {}

  /**
   * As {@link #find(JobSelection)}, but at most {@code limit} rows (0: all) after {@code after}
   * (null: from the start): keyset paging over the primary key, so each page costs the same.
   */
  public List<AcctJob> find(JobSelection sel, Cursor after, int limit) throws SQLException {
    JobSelection s = after == null ? sel : sel.copy().where("(job_id > ? OR (job_id = ? AND submit_time > ?))",
        after.jobId(), after.jobId(), after.submitTime());
    List<AcctJob> out = new ArrayList<>();
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement("SELECT record FROM corral_job" + s.where()
            + " ORDER BY job_id, submit_time" + (limit > 0 ? " LIMIT " + limit : ""))) {
      s.bind(st);
      st.setFetchSize(1000);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          try {
            out.add(AcctJob.parseFrom(rs.getBytes(1)));
          } catch (InvalidProtocolBufferException e) {
            throw new SQLException("a stored job record cannot be read: " + e.getMessage(), e);
          }
        }
      }
    }
    return out;
  }

  /** The highest event id stored for {@code cluster}, 0 if none. */
  public long storedThrough(String cluster) throws SQLException {
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement("SELECT stored_through FROM corral_cluster WHERE name = ?")) {
      st.setString(1, cluster);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }
}

package org.corral.dbd.storage;

import com.google.protobuf.InvalidProtocolBufferException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;

/**
 * Job records in the database (and, in the same transactions, node events: {@link NodeEventStore}). Storing is idempotent and ordered: each row remembers the last
 * event applied to it, so an event repeated (the controller resends what it was not sure was
 * stored) or older than the row changes nothing. Every statement is parameterized.
 */
public final class JobStore {
  private final Database db;

  public JobStore(Database db) {
    this.db = db;
  }

  /** A job's row key: the same job id submitted again (state cleared) is another job. */
  private record Key(long jobId, long submitTime) {}

  /**
   * Stores a batch of events in one transaction. Within the batch only a job's newest event
   * matters; the rows' last event ids are read in one query and the writes go as JDBC batches,
   * so a batch costs a few round trips to the database, not a few per event.
   *
   * @return the highest event id now durable (the last of the batch)
   */
  public synchronized long store(String cluster, List<AcctEvent> events) throws SQLException {
    Map<Key, AcctEvent> newest = new LinkedHashMap<>();
    List<AcctEvent> nodeEvents = new ArrayList<>();
    List<AcctEvent> reservations = new ArrayList<>();
    long through = 0;
    for (AcctEvent e : events) {
      through = Math.max(through, e.getEventId());
      if (e.hasNodeEvent()) {
        nodeEvents.add(e); // applied in order: a node's events depend on the ones before
        continue;
      }
      if (e.hasReservation()) {
        reservations.add(e);
        continue;
      }
      Key k = new Key(Integer.toUnsignedLong(e.getJob().getJobId()), e.getJob().getSubmitTime());
      AcctEvent had = newest.get(k);
      if (had == null || had.getEventId() < e.getEventId()) {
        newest.put(k, e);
      }
    }
    try (Connection c = db.connection()) {
      c.setAutoCommit(false);
      try {
        ensureCluster(c, cluster);
        Map<Key, Long> stored = lastEvents(c, cluster, newest.keySet());
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO corral_job (" + COLUMNS
                + ", cluster, job_id, submit_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            PreparedStatement update = c.prepareStatement("UPDATE corral_job SET " + COLUMNS.replace(",", " = ?,")
                + " = ? WHERE cluster = ? AND job_id = ? AND submit_time = ?")) {
          int inserts = 0;
          int updates = 0;
          Map<List<String>, Integer> wckeyIds = new HashMap<>();
          for (Map.Entry<Key, AcctEvent> e : newest.entrySet()) {
            Long last = stored.get(e.getKey());
            if (last != null && last >= e.getValue().getEventId()) {
              continue; // already stored, or a newer state is
            }
            PreparedStatement st = last == null ? insert : update;
            bind(st, cluster, withWckeyId(c, cluster, e.getValue(), wckeyIds));
            st.addBatch();
            if (last == null) {
              inserts++;
            } else {
              updates++;
            }
          }
          if (inserts > 0) {
            insert.executeBatch();
          }
          if (updates > 0) {
            update.executeBatch();
          }
        }
        NodeEventStore.store(c, cluster, nodeEvents);
        ReservationStore.store(c, cluster, reservations);
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

  private static final String COLUMNS = "array_job_id, array_task_id, user_id, account, partition_name, job_name,"
      + " state, start_time, end_time, alloc_cpus, last_event, record";
  private static final int IN_CHUNK = 500;

  /** The stored rows' last event ids for these keys (absent: no row yet). */
  private static Map<Key, Long> lastEvents(Connection c, String cluster, Collection<Key> keys) throws SQLException {
    Map<Key, Long> out = new HashMap<>();
    List<Long> ids = keys.stream().map(Key::jobId).distinct().toList();
    for (int i = 0; i < ids.size(); i += IN_CHUNK) {
      List<Long> chunk = ids.subList(i, Math.min(ids.size(), i + IN_CHUNK));
      JobSelection sel = new JobSelection().where("cluster = ?", cluster).in("job_id", chunk);
      try (PreparedStatement st = c.prepareStatement("SELECT job_id, submit_time, last_event FROM corral_job"
          + sel.where())) {
        sel.bind(st);
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next()) {
            out.put(new Key(rs.getLong(1), rs.getLong(2)), rs.getLong(3));
          }
        }
      }
    }
    return out;
  }

  /**
   * The event with its job's wckey id filled in: the id slurmdbd gave (cluster, wckey, user) in
   * acct_wckey, a default wckey's '*' mark aside; 0 when the job has none or the key is unknown.
   */
  private static AcctEvent withWckeyId(Connection c, String cluster, AcctEvent e, Map<List<String>, Integer> cache)
      throws SQLException {
    AcctJob j = e.getJob();
    String name = j.getWckey().startsWith("*") ? j.getWckey().substring(1) : j.getWckey();
    if (name.isEmpty() || j.getWckeyId() != 0) {
      return e;
    }
    List<String> key = List.of(name, j.getUserName());
    Integer id = cache.get(key);
    if (id == null) {
      id = 0;
      try (PreparedStatement st = c.prepareStatement(
          "SELECT id FROM acct_wckey WHERE cluster = ? AND name = ? AND user_name = ?")) {
        st.setString(1, cluster);
        st.setString(2, name);
        st.setString(3, j.getUserName());
        try (ResultSet rs = st.executeQuery()) {
          if (rs.next()) {
            id = (int) rs.getLong(1);
          }
        }
      }
      cache.put(key, id);
    }
    return id == 0 ? e : e.toBuilder().setJob(j.toBuilder().setWckeyId(id)).build();
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

  private static void bind(PreparedStatement st, String cluster, AcctEvent e) throws SQLException {
    AcctJob j = e.getJob();
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
    st.setLong(14, Integer.toUnsignedLong(j.getJobId()));
    st.setLong(15, j.getSubmitTime());
  }

  /**
   * Job records matching a selection made of SQL conditions on the row's columns, in
   * submission order (submit time, then job id), as sacct lists them.
   */
  public List<AcctJob> find(JobSelection sel) throws SQLException {
    return find(sel, null, 0);
  }

  /** Where a page of job records ended: the last row's place in {@link #ORDER}. */
  public record Cursor(long submitTime, long arrayJobId, long arrayTaskId, long jobId) {
    public static Cursor after(AcctJob j) {
      return new Cursor(j.getSubmitTime(), Integer.toUnsignedLong(j.getArrayJobId()),
          Integer.toUnsignedLong(j.getArrayTaskId()), Integer.toUnsignedLong(j.getJobId()));
    }
  }

  /** sacct's order: by submit time; within a second plain jobs first, then tasks by array and index. */
  private static final String ORDER = "submit_time, array_job_id, array_task_id, job_id";

  /**
   * As {@link #find(JobSelection)}, but at most {@code limit} rows (0: all) after {@code after}
   * (null: from the start): keyset paging over the primary key, so each page costs the same.
   */
  public List<AcctJob> find(JobSelection sel, Cursor after, int limit) throws SQLException {
    // The leading bound on submit_time lets every database range-scan the index; MariaDB does not
    // use it for the row-value comparison alone (each page would scan the table from its start).
    JobSelection s = after == null ? sel : sel.copy().where("submit_time >= ? AND (" + ORDER + ") > (?, ?, ?, ?)",
        after.submitTime(), after.submitTime(), after.arrayJobId(), after.arrayTaskId(), after.jobId());
    List<AcctJob> out = new ArrayList<>();
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement("SELECT record FROM corral_job" + s.where()
            + " ORDER BY " + ORDER + (limit > 0 ? " LIMIT " + limit : ""))) {
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

  /**
   * Up to {@code limit} records of jobs of these clusters (empty: any) that ended before
   * {@code cutoff}, oldest key first: what PurgeJobAfter removes next.
   */
  public List<AcctJob> endedBefore(long cutoff, List<String> clusters, int limit) throws SQLException {
    return find(new JobSelection().where("end_time > 0 AND end_time < ?", cutoff).in("cluster", clusters), null, limit);
  }

  /** Removes these jobs' records (their key: cluster, job id, submit time). */
  public synchronized int delete(List<AcctJob> jobs) throws SQLException {
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement(
            "DELETE FROM corral_job WHERE cluster = ? AND job_id = ? AND submit_time = ?")) {
      c.setAutoCommit(false);
      for (AcctJob j : jobs) {
        st.setString(1, j.getCluster());
        st.setLong(2, Integer.toUnsignedLong(j.getJobId()));
        st.setLong(3, j.getSubmitTime());
        st.addBatch();
      }
      int n = jobs.isEmpty() ? 0 : java.util.Arrays.stream(st.executeBatch()).sum();
      c.commit();
      return n;
    }
  }

  /** Sees each page of records before their steps are dropped (to archive them). */
  public interface PageSink {
    void accept(List<AcctJob> page) throws java.io.IOException;
  }

  /**
   * Drops the steps of jobs of these clusters (empty: any) that ended before {@code cutoff}
   * (PurgeStepAfter), each page shown to {@code before} first; returns how many jobs lost steps.
   */
  public synchronized int dropStepsBefore(long cutoff, List<String> clusters, PageSink before)
      throws SQLException, java.io.IOException {
    int changed = 0;
    List<AcctJob> page;
    Cursor after = null;
    JobSelection sel = new JobSelection().where("end_time > 0 AND end_time < ?", cutoff).in("cluster", clusters);
    do {
      page = find(sel, after, 1000);
      before.accept(page);
      try (Connection c = db.connection();
          PreparedStatement st = c.prepareStatement(
              "UPDATE corral_job SET record = ? WHERE cluster = ? AND job_id = ? AND submit_time = ?")) {
        c.setAutoCommit(false);
        for (AcctJob j : page) {
          if (j.getStepsCount() > 0) {
            st.setBytes(1, j.toBuilder().clearSteps().build().toByteArray());
            st.setString(2, j.getCluster());
            st.setLong(3, Integer.toUnsignedLong(j.getJobId()));
            st.setLong(4, j.getSubmitTime());
            st.addBatch();
            changed++;
          }
        }
        st.executeBatch();
        c.commit();
      }
      if (!page.isEmpty()) {
        after = Cursor.after(page.get(page.size() - 1));
      }
    } while (page.size() == 1000);
    return changed;
  }

  /**
   * Puts archived records back (sacctmgr archive load), in one transaction: a job without a row
   * is inserted as archived; one whose row lost its steps gets them back; any other is already
   * here and left alone, so loading a file twice stores nothing twice. A restored row counts as
   * holding every event its cluster had stored, so no older event of the controller's can
   * overwrite it. Returns how many records were inserted or completed.
   */
  public synchronized int restore(List<AcctJob> records) throws SQLException {
    int restored = 0;
    try (Connection c = db.connection()) {
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO corral_job (" + COLUMNS
              + ", cluster, job_id, submit_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
          PreparedStatement steps = c.prepareStatement(
              "UPDATE corral_job SET record = ? WHERE cluster = ? AND job_id = ? AND submit_time = ?");
          PreparedStatement existing = c.prepareStatement(
              "SELECT record FROM corral_job WHERE cluster = ? AND job_id = ? AND submit_time = ?")) {
        Map<String, Long> through = new HashMap<>();
        java.util.Set<Key> seen = new java.util.HashSet<>();
        for (AcctJob j : records) {
          Key k = new Key(Integer.toUnsignedLong(j.getJobId()), j.getSubmitTime());
          if (!seen.add(k)) {
            continue; // the file holds it twice (archived, loaded and archived again)
          }
          existing.setString(1, j.getCluster());
          existing.setLong(2, k.jobId());
          existing.setLong(3, k.submitTime());
          AcctJob had = null;
          try (ResultSet rs = existing.executeQuery()) {
            if (rs.next()) {
              had = AcctJob.parseFrom(rs.getBytes(1));
            }
          } catch (InvalidProtocolBufferException e) {
            throw new SQLException("a stored job record cannot be read: " + e.getMessage(), e);
          }
          if (had == null) {
            ensureCluster(c, j.getCluster());
            Long last = through.get(j.getCluster());
            if (last == null) {
              last = storedThrough(c, j.getCluster());
              through.put(j.getCluster(), last);
            }
            bind(insert, j.getCluster(), AcctEvent.newBuilder().setEventId(last).setJob(j).build());
            insert.executeUpdate();
            restored++;
          } else if (had.getStepsCount() == 0 && j.getStepsCount() > 0) {
            steps.setBytes(1, had.toBuilder().addAllSteps(j.getStepsList()).build().toByteArray());
            steps.setString(2, j.getCluster());
            steps.setLong(3, k.jobId());
            steps.setLong(4, k.submitTime());
            steps.executeUpdate();
            restored++;
          }
        }
        c.commit();
        return restored;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  /** Whether job records of {@code cluster} were ever stored here. */
  public boolean hasCluster(String cluster) throws SQLException {
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement("SELECT 1 FROM corral_cluster WHERE name = ?")) {
      st.setString(1, cluster);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** The highest event id stored for {@code cluster}, 0 if none. */
  public long storedThrough(String cluster) throws SQLException {
    try (Connection c = db.connection()) {
      return storedThrough(c, cluster);
    }
  }

  private static long storedThrough(Connection c, String cluster) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT stored_through FROM corral_cluster WHERE name = ?")) {
      st.setString(1, cluster);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }
}

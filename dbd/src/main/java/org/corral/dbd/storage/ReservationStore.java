package org.corral.dbd.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.ResvPeriod;

/**
 * Reservation periods in the database (corral_resv), as Slurm's slurmdbd keeps its resv table.
 * Storing is idempotent as for jobs and node events: a row remembers the last controller event
 * applied to it, and an event not newer than that changes nothing; a closing (no start) ends the
 * period of its name open at its moment. A deleted period stays as a
 * row marked deleted, so a late copy of an older event cannot bring it back.
 */
public final class ReservationStore {
  private final Database db;

  public ReservationStore(Database db) {
    this.db = db;
  }

  /** Applies the controller's reservation periods, in the caller's transaction. */
  static void store(Connection c, String cluster, List<AcctEvent> events) throws SQLException {
    if (events.isEmpty()) {
      return;
    }
    try (PreparedStatement last = c.prepareStatement(
            "SELECT last_event FROM corral_resv WHERE cluster = ? AND resv_name = ? AND time_start = ?");
        PreparedStatement insert = c.prepareStatement("INSERT INTO corral_resv (time_end, nodes, cpus, flags,"
            + " deleted, last_event, cluster, resv_name, time_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement update = c.prepareStatement("UPDATE corral_resv SET time_end = ?, nodes = ?, cpus = ?,"
            + " flags = ?, deleted = ?, last_event = ? WHERE cluster = ? AND resv_name = ? AND time_start = ?");
        PreparedStatement close = c.prepareStatement("UPDATE corral_resv SET time_end = ?, last_event = ?"
            + " WHERE cluster = ? AND resv_name = ? AND deleted = 0 AND time_start <= ? AND time_end > ?"
            + " AND last_event < ?")) {
      for (AcctEvent e : events) {
        ResvPeriod r = e.getReservation();
        if (r.getTimeStart() == 0) { // the period open at r.at ends at r.time_end
          close.setLong(1, r.getTimeEnd());
          close.setLong(2, e.getEventId());
          close.setString(3, cluster);
          close.setString(4, r.getName());
          close.setLong(5, r.getAt());
          close.setLong(6, r.getAt());
          close.setLong(7, e.getEventId());
          close.executeUpdate();
          continue;
        }
        Long had = NodeEventStore.lastEvent(last, cluster, r.getName(), r.getTimeStart());
        if (had != null && had >= e.getEventId()) {
          continue;
        }
        PreparedStatement st = had == null ? insert : update;
        st.setLong(1, r.getTimeEnd());
        st.setString(2, r.getNodes());
        st.setLong(3, Integer.toUnsignedLong(r.getCpus()));
        st.setString(4, String.join(",", r.getFlagsList()));
        st.setInt(5, r.getDeleted() ? 1 : 0);
        st.setLong(6, e.getEventId());
        st.setString(7, cluster);
        st.setString(8, r.getName());
        st.setLong(9, r.getTimeStart());
        st.executeUpdate();
      }
    }
  }

  /** {@code cluster}'s reservation periods (not deleted) overlapping [from, to), by start. */
  public List<ResvPeriod> overlapping(String cluster, long from, long to) throws SQLException {
    List<ResvPeriod> out = new ArrayList<>();
    try (Connection c = db.connection();
        PreparedStatement st = c.prepareStatement("SELECT resv_name, time_start, time_end, nodes, cpus, flags"
            + " FROM corral_resv WHERE cluster = ? AND deleted = 0 AND time_end > ? AND time_start < ?"
            + " ORDER BY time_start, resv_name")) {
      st.setString(1, cluster);
      st.setLong(2, from);
      st.setLong(3, to);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          ResvPeriod.Builder b = ResvPeriod.newBuilder().setName(rs.getString(1)).setTimeStart(rs.getLong(2))
              .setTimeEnd(rs.getLong(3)).setNodes(rs.getString(4)).setCpus((int) rs.getLong(5));
          if (!rs.getString(6).isEmpty()) {
            b.addAllFlags(Arrays.asList(rs.getString(6).split(",")));
          }
          out.add(b.build());
        }
      }
    }
    return out;
  }
}

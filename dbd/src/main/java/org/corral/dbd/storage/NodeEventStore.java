package org.corral.dbd.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.EventQueryRequest;
import org.corral.protocol.msg.NodeEvent;

/**
 * Node events in the database (corral_node_event) and the cluster events read from the cluster's
 * registered TRES (corral_cluster_cpus). Storing is idempotent as for jobs: a row remembers the
 * last controller event applied to it, and an event not newer than that changes nothing.
 */
public final class NodeEventStore {
  private final Database db;

  public NodeEventStore(Database db) {
    this.db = db;
  }

  /**
   * Applies the controller's node events, in the caller's transaction: an opening inserts (or
   * rewrites) its row; a closing ends the node's open event that began no later than it.
   */
  static void store(Connection c, String cluster, List<AcctEvent> events) throws SQLException {
    try (PreparedStatement last = c.prepareStatement(
            "SELECT last_event FROM corral_node_event WHERE cluster = ? AND node_name = ? AND time_start = ?");
        PreparedStatement insert = c.prepareStatement("INSERT INTO corral_node_event (time_end, state, reason,"
            + " reason_uid, tres, cpus, last_event, cluster, node_name, time_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement update = c.prepareStatement("UPDATE corral_node_event SET time_end = ?, state = ?,"
            + " reason = ?, reason_uid = ?, tres = ?, cpus = ?, last_event = ? WHERE cluster = ? AND node_name = ?"
            + " AND time_start = ?");
        PreparedStatement close = c.prepareStatement("UPDATE corral_node_event SET time_end = ?, last_event = ?"
            + " WHERE cluster = ? AND node_name = ? AND time_end = 0 AND time_start <= ? AND last_event < ?")) {
      for (AcctEvent e : events) {
        NodeEvent n = e.getNodeEvent();
        if (n.getTimeStart() == 0) {
          close.setLong(1, n.getTimeEnd());
          close.setLong(2, e.getEventId());
          close.setString(3, cluster);
          close.setString(4, n.getNode());
          close.setLong(5, n.getTimeEnd());
          close.setLong(6, e.getEventId());
          close.executeUpdate();
          continue;
        }
        Long had = lastEvent(last, cluster, n.getNode(), n.getTimeStart());
        if (had != null && had >= e.getEventId()) {
          continue; // stored already, or something newer is
        }
        PreparedStatement st = had == null ? insert : update;
        st.setLong(1, n.getTimeEnd());
        st.setLong(2, Integer.toUnsignedLong(n.getState()));
        st.setString(3, n.getReason());
        st.setLong(4, Integer.toUnsignedLong(n.getReasonUid()));
        st.setString(5, n.getTres());
        st.setLong(6, NodeEvents.cpus(n.getTres()));
        st.setLong(7, e.getEventId());
        st.setString(8, cluster);
        st.setString(9, n.getNode());
        st.setLong(10, n.getTimeStart());
        st.executeUpdate();
      }
    }
  }

  /** The last event applied to the row {@code last} selects by (cluster, name, start); null: none. */
  static Long lastEvent(PreparedStatement last, String cluster, String name, long start) throws SQLException {
    last.setString(1, cluster);
    last.setString(2, name);
    last.setLong(3, start);
    try (ResultSet rs = last.executeQuery()) {
      return rs.next() ? rs.getLong(1) : null;
    }
  }

  /**
   * The events of {@code clusters} that {@code q} selects: each cluster's cluster events (one per
   * TRES registration, ended by the next), then its node events by node and start.
   */
  public List<NodeEvent> find(List<String> clusters, EventQueryRequest q) throws SQLException {
    List<NodeEvent> out = new ArrayList<>();
    try (Connection c = db.connection()) {
      for (String cluster : clusters) {
        try (PreparedStatement st = c.prepareStatement("SELECT since, tres, nodes, cpus FROM corral_cluster_cpus"
            + " WHERE cluster = ? ORDER BY since")) {
          st.setString(1, cluster);
          List<NodeEvent> registered = new ArrayList<>();
          try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
              String tres = rs.getString(2).isEmpty() ? "cpu=" + rs.getLong(4) : rs.getString(2);
              registered.add(NodeEvent.newBuilder().setCluster(cluster).setTimeStart(rs.getLong(1)).setTres(tres)
                  .setClusterNodes(rs.getString(3)).setReason("Cluster Registered TRES").build());
            }
          }
          for (int i = 0; i < registered.size(); i++) {
            NodeEvent e = i + 1 < registered.size()
                ? registered.get(i).toBuilder().setTimeEnd(registered.get(i + 1).getTimeStart()).build()
                : registered.get(i);
            if (NodeEvents.matches(q, e)) {
              out.add(e);
            }
          }
        }
        for (NodeEvent e : nodeEvents(c, cluster, q.getOpenOnly() ? 0 : q.getStart(), q.getEnd())) {
          if (NodeEvents.matches(q, e)) {
            out.add(e);
          }
        }
      }
    }
    return out;
  }

  /** {@code cluster}'s node events overlapping [from, to) (to 0: no end), by node and start. */
  public List<NodeEvent> overlapping(String cluster, long from, long to) throws SQLException {
    try (Connection c = db.connection()) {
      return nodeEvents(c, cluster, from, to);
    }
  }

  private static List<NodeEvent> nodeEvents(Connection c, String cluster, long from, long to) throws SQLException {
    JobSelection sel = new JobSelection().where("cluster = ?", cluster).where("(time_end = 0 OR time_end >= ?)", from);
    if (to > 0) {
      sel.where("time_start < ?", to);
    }
    List<NodeEvent> out = new ArrayList<>();
    try (PreparedStatement st = c.prepareStatement("SELECT node_name, time_start, time_end, state, reason,"
        + " reason_uid, tres FROM corral_node_event" + sel.where() + " ORDER BY node_name, time_start")) {
      sel.bind(st);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.add(NodeEvent.newBuilder().setCluster(cluster).setNode(rs.getString(1)).setTimeStart(rs.getLong(2))
              .setTimeEnd(rs.getLong(3)).setState((int) rs.getLong(4)).setReason(rs.getString(5))
              .setReasonUid((int) rs.getLong(6)).setTres(rs.getString(7)).build());
        }
      }
    }
    return out;
  }
}

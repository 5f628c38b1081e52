package org.corral.dbd.assoc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctTxn;
import org.corral.protocol.msg.TxnQueryRequest;

/**
 * slurmdbd's transaction table: each sacctmgr change, written in the same database transaction
 * as the change itself, with Slurm's action names ("Add Users", "Modify Associations", "Remove
 * Accounts", ...), the actor, what it applied to (where) and the settings it made (info).
 */
final class Transactions {
  private Transactions() {}

  /** One change as a transaction row, named by whether its entity existed before it. */
  static AcctTxn describe(AcctChange ch, AssocModel current) {
    return switch (ch.getChangeCase()) {
      case ADD_CLUSTER -> txn("Add Clusters", ch.getAddCluster().getName(), "");
      case PUT_ACCOUNT -> txn(verb(current.accounts.containsKey(ch.getPutAccount().getName())) + " Accounts",
          ch.getPutAccount().getName(), "description='" + ch.getPutAccount().getDescription()
              + "', organization='" + ch.getPutAccount().getOrganization() + "'");
      case PUT_USER -> txn(verb(current.users.containsKey(ch.getPutUser().getName())) + " Users",
          ch.getPutUser().getName(), "default_acct='" + ch.getPutUser().getDefaultAccount()
              + "', admin_level=" + ch.getPutUser().getAdminLevel());
      case PUT_ASSOC -> txn(verb(current.assocs.containsKey(AssocModel.Key.of(ch.getPutAssoc()))) + " Associations",
          where(ch.getPutAssoc()), "parent_acct='" + ch.getPutAssoc().getParentAccount() + "'"
              + (ch.getPutAssoc().getQosCount() > 0 ? ", qos='" + String.join(",", ch.getPutAssoc().getQosList()) + "'"
                  : ""));
      case PUT_QOS -> txn(verb(current.qos.containsKey(ch.getPutQos().getName())) + " QOS",
          ch.getPutQos().getName(), "priority=" + ch.getPutQos().getPriority());
      case ADD_COORD -> txn("Add Account Coordinators", ch.getAddCoord().getUser(),
          "acct='" + ch.getAddCoord().getAccount() + "'");
      case DELETE_CLUSTER -> txn("Remove Clusters", "(name='" + ch.getDeleteCluster() + "')", "");
      case DELETE_ACCOUNT -> txn("Remove Accounts", "(name='" + ch.getDeleteAccount() + "')", "");
      case DELETE_USER -> txn("Remove Users", "(name='" + ch.getDeleteUser() + "')", "");
      case DELETE_ASSOC -> txn("Remove Associations", where(ch.getDeleteAssoc()), "");
      case DELETE_QOS -> txn("Remove QOS", "(name='" + ch.getDeleteQos() + "')", "");
      case DELETE_COORD -> txn("Remove Account Coordinators", "(user='" + ch.getDeleteCoord().getUser() + "')",
          "acct='" + ch.getDeleteCoord().getAccount() + "'");
      case PUT_WCKEY -> txn("Add WCKeys", ch.getPutWckey().getName(), "");
      case DELETE_WCKEY -> txn("Remove WCKeys", "(name='" + ch.getDeleteWckey().getName() + "')", "");
      case CHANGE_NOT_SET -> txn("Unknown", "", "");
    };
  }

  private static String verb(boolean existed) {
    return existed ? "Modify" : "Add";
  }

  private static String where(AcctAssoc a) {
    StringBuilder sb = new StringBuilder("cluster='").append(a.getCluster()).append("' acct='")
        .append(a.getAccount()).append('\'');
    if (!a.getUser().isEmpty()) {
      sb.append(" user='").append(a.getUser()).append('\'');
    }
    if (!a.getPartition().isEmpty()) {
      sb.append(" partition='").append(a.getPartition()).append('\'');
    }
    return sb.toString();
  }

  private static AcctTxn txn(String action, String where, String info) {
    return AcctTxn.newBuilder().setAction(action).setWhere(where).setInfo(info).build();
  }

  /** Writes the rows within the caller's database transaction. */
  static void insert(Connection c, long time, String actor, List<AcctTxn> txns) throws SQLException {
    long next;
    try (PreparedStatement st = c.prepareStatement("SELECT MAX(id) FROM acct_txn"); ResultSet rs = st.executeQuery()) {
      next = rs.next() ? rs.getLong(1) + 1 : 1;
    }
    try (PreparedStatement st = c.prepareStatement(
        "INSERT INTO acct_txn (id, time_stamp, action, actor, where_text, info) VALUES (?, ?, ?, ?, ?, ?)")) {
      for (AcctTxn t : txns) {
        st.setLong(1, next++);
        st.setLong(2, time);
        st.setString(3, t.getAction());
        st.setString(4, actor);
        st.setString(5, clip(t.getWhere()));
        st.setString(6, clip(t.getInfo()));
        st.addBatch();
      }
      st.executeBatch();
    }
  }

  private static String clip(String s) {
    return s.length() > 4096 ? s.substring(0, 4096) : s;
  }

  /** The transactions a query selects, oldest first. */
  static List<AcctTxn> find(Connection c, TxnQueryRequest q) throws SQLException {
    List<AcctTxn> out = new ArrayList<>();
    long end = q.getEnd() == 0 ? Long.MAX_VALUE : q.getEnd();
    try (PreparedStatement st = c.prepareStatement("SELECT time_stamp, action, actor, where_text, info FROM acct_txn"
        + " WHERE time_stamp >= ? AND time_stamp < ? ORDER BY id")) {
      st.setLong(1, q.getStart());
      st.setLong(2, end);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          AcctTxn t = AcctTxn.newBuilder().setTime(rs.getLong(1)).setAction(rs.getString(2))
              .setActor(rs.getString(3)).setWhere(rs.getString(4)).setInfo(rs.getString(5)).build();
          if (selected(t, q)) {
            out.add(t);
          }
        }
      }
    }
    return out;
  }

  private static boolean selected(AcctTxn t, TxnQueryRequest q) {
    if (q.getActorsCount() > 0 && !q.getActorsList().contains(t.getActor())) {
      return false;
    }
    if (q.getActionsCount() > 0 && q.getActionsList().stream().noneMatch(a -> a.equalsIgnoreCase(t.getAction()))) {
      return false;
    }
    return mentions(t, q.getUsersList(), "Users", "user") && mentions(t, q.getAccountsList(), "Accounts", "acct")
        && mentions(t, q.getClustersList(), "Clusters", "cluster");
  }

  /** Whether a transaction is about one of {@code names}: its entity, or a field naming it. */
  private static boolean mentions(AcctTxn t, List<String> names, String kind, String field) {
    if (names.isEmpty()) {
      return true;
    }
    String where = t.getWhere().toLowerCase(Locale.ROOT);
    for (String n : names) {
      String name = n.toLowerCase(Locale.ROOT);
      if ((t.getAction().endsWith(kind) && (where.equals(name) || where.equals("(name='" + name + "')")))
          || where.contains(field + "='" + name + "'")) {
        return true;
      }
    }
    return false;
  }
}

package org.corral.dbd.assoc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.corral.dbd.storage.Database;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctTxn;
import org.corral.protocol.msg.TxnQueryRequest;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctWckey;
import org.corral.protocol.msg.AssocSnapshot;

/**
 * The association tables (V2__associations.sql). A request's changes are checked and applied
 * to the model read inside one transaction, and only the rows that differ are written, so a
 * refused change leaves everything as it was. Every statement is parameterized; names are stored
 * verbatim.
 */
public final class AssocStore {
  private final Database db;

  public AssocStore(Database db) {
    this.db = db;
  }

  /**
   * Creates what Slurm starts with: QOS normal, account root, user root (Administrator), and,
   * when {@code cluster} is not empty, that cluster with its root associations.
   */
  public synchronized void bootstrap(String cluster) throws SQLException {
    try {
      update(AssocRules.Actor.superUser("root"), List.of(), m -> {
        if (!m.qos.containsKey("normal")) {
          m.apply(AcctChange.newBuilder().setPutQos(AcctQos.newBuilder().setName("normal")
              .setDescription("Normal QOS default")).build());
        }
        if (!m.accounts.containsKey("root")) {
          m.apply(AcctChange.newBuilder().setPutAccount(AcctAccount.newBuilder().setName("root")
              .setDescription("default root account").setOrganization("root")).build());
        }
        if (!m.users.containsKey("root")) {
          m.apply(AcctChange.newBuilder().setPutUser(AcctUser.newBuilder().setName("root")
              .setDefaultAccount("root").setAdminLevel(AssocRules.ADMINISTRATOR)).build());
        }
        if (cluster != null && !cluster.isEmpty() && !m.clusters.containsKey(cluster)) {
          m.apply(AcctChange.newBuilder().setAddCluster(AcctCluster.newBuilder().setName(cluster)).build());
        }
      }, false);
    } catch (AcctException e) {
      throw new SQLException("cannot create the root associations: " + e.getMessage(), e);
    }
  }

  /** Everything about {@code cluster} ("" = all clusters). */
  public AssocSnapshot snapshot(String cluster) throws SQLException {
    try (Connection c = db.connection()) {
      return load(c).snapshot(cluster);
    }
  }

  /** The caller as the rules see it, from the stored users and coordinators. */
  public AssocRules.Actor actor(String userName) throws SQLException {
    try (Connection c = db.connection()) {
      return AssocRules.Actor.of(userName, load(c));
    }
  }

  interface Edit {
    void run(AssocModel m) throws AcctException;
  }

  /** Applies {@code changes} as {@code who}, all or none; returns how many were applied. */
  public synchronized int apply(AssocRules.Actor who, List<AcctChange> changes, boolean checkOnly)
      throws SQLException, AcctException {
    update(who, changes, m -> { }, checkOnly);
    return changes.size();
  }

  private void update(AssocRules.Actor given, List<AcctChange> changes, Edit extra, boolean checkOnly)
      throws SQLException, AcctException {
    try (Connection c = db.connection()) {
      c.setAutoCommit(false);
      try {
        AssocModel before = load(c);
        AssocModel after = before.copy();
        AssocRules.Actor who = given.level() >= AssocRules.ADMINISTRATOR ? given : AssocRules.Actor.of(given.name(), before);
        List<AcctTxn> txns = new ArrayList<>();
        for (AcctChange ch : changes) {
          AssocRules.check(who, after, ch);
          txns.add(Transactions.describe(ch, after));
          after.apply(ch);
        }
        extra.run(after);
        if (checkOnly) {
          c.rollback();
          return;
        }
        write(c, before, after);
        Transactions.insert(c, Instant.now().getEpochSecond(), given.name(), txns);
        c.commit();
      } catch (SQLException | AcctException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  /** sacctmgr show transaction: the transactions the query selects, oldest first. */
  public List<AcctTxn> transactions(TxnQueryRequest q) throws SQLException {
    try (Connection c = db.connection()) {
      return Transactions.find(c, q);
    }
  }

  static AssocModel load(Connection c) throws SQLException {
    AssocModel m = new AssocModel();
    try {
      for (byte[] r : records(c, "SELECT record FROM acct_cluster")) {
        AcctCluster x = AcctCluster.parseFrom(r);
        m.clusters.put(x.getName(), x);
      }
      for (byte[] r : records(c, "SELECT record FROM acct_account")) {
        AcctAccount x = AcctAccount.parseFrom(r);
        m.accounts.put(x.getName(), x);
      }
      for (byte[] r : records(c, "SELECT record FROM acct_user")) {
        AcctUser x = AcctUser.parseFrom(r);
        m.users.put(x.getName(), x);
      }
      for (byte[] r : records(c, "SELECT record FROM acct_assoc")) {
        AcctAssoc x = AcctAssoc.parseFrom(r);
        m.assocs.put(AssocModel.Key.of(x), x);
      }
      for (byte[] r : records(c, "SELECT record FROM acct_qos")) {
        AcctQos x = AcctQos.parseFrom(r);
        m.qos.put(x.getName(), x);
      }
      for (byte[] r : records(c, "SELECT record FROM acct_wckey")) {
        AcctWckey x = AcctWckey.parseFrom(r);
        m.wckeys.put(AssocModel.WckeyKey.of(x), x);
      }
    } catch (InvalidProtocolBufferException e) {
      throw new SQLException("a stored association record cannot be read: " + e.getMessage(), e);
    }
    try (PreparedStatement st = c.prepareStatement("SELECT user_name, account FROM acct_coord");
        ResultSet rs = st.executeQuery()) {
      while (rs.next()) {
        m.coords.add(new AssocModel.Coord(rs.getString(1), rs.getString(2)));
      }
    }
    return m;
  }

  private static List<byte[]> records(Connection c, String sql) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
      List<byte[]> out = new java.util.ArrayList<>();
      while (rs.next()) {
        out.add(rs.getBytes(1));
      }
      return out;
    }
  }

  private static void write(Connection c, AssocModel before, AssocModel after) throws SQLException {
    writeTable(c, "acct_cluster", before.clusters, after.clusters);
    writeTable(c, "acct_account", before.accounts, after.accounts);
    writeTable(c, "acct_user", before.users, after.users);
    writeTable(c, "acct_qos", before.qos, after.qos);
    for (var e : before.assocs.entrySet()) {
      AcctAssoc now = after.assocs.get(e.getKey());
      if (now == null || now.getId() != e.getValue().getId()) {
        exec(c, "DELETE FROM acct_assoc WHERE id = ?", (long) e.getValue().getId());
      }
    }
    for (var e : after.assocs.entrySet()) {
      AcctAssoc old = before.assocs.get(e.getKey());
      AcctAssoc a = e.getValue();
      if (old == null || old.getId() != a.getId()) {
        exec(c, "INSERT INTO acct_assoc (id, cluster, account, user_name, partition_name, record)"
            + " VALUES (?, ?, ?, ?, ?, ?)", (long) a.getId(), a.getCluster(), a.getAccount(), a.getUser(),
            a.getPartition(), a.toByteArray());
      } else if (!old.equals(a)) {
        exec(c, "UPDATE acct_assoc SET record = ? WHERE id = ?", a.toByteArray(), (long) a.getId());
      }
    }
    for (var e : before.wckeys.entrySet()) {
      if (!after.wckeys.containsKey(e.getKey())) {
        exec(c, "DELETE FROM acct_wckey WHERE id = ?", (long) e.getValue().getId());
      }
    }
    for (var e : after.wckeys.entrySet()) {
      AcctWckey w = e.getValue();
      if (!before.wckeys.containsKey(e.getKey())) {
        exec(c, "INSERT INTO acct_wckey (id, cluster, name, user_name, record) VALUES (?, ?, ?, ?, ?)",
            (long) w.getId(), w.getCluster(), w.getName(), w.getUser(), w.toByteArray());
      }
    }
    for (AssocModel.Coord k : before.coords) {
      if (!after.coords.contains(k)) {
        exec(c, "DELETE FROM acct_coord WHERE user_name = ? AND account = ?", k.user(), k.account());
      }
    }
    for (AssocModel.Coord k : after.coords) {
      if (!before.coords.contains(k)) {
        exec(c, "INSERT INTO acct_coord (user_name, account) VALUES (?, ?)", k.user(), k.account());
      }
    }
  }

  /** Rows of a table keyed by name (acct_qos also has its id). */
  private static <T extends MessageLite> void writeTable(Connection c, String table, Map<String, T> before,
      Map<String, T> after) throws SQLException {
    for (String name : before.keySet()) {
      if (!after.containsKey(name)) {
        exec(c, "DELETE FROM " + table + " WHERE name = ?", name);
      }
    }
    for (var e : after.entrySet()) {
      T old = before.get(e.getKey());
      if (old == null) {
        if (table.equals("acct_qos")) {
          exec(c, "INSERT INTO acct_qos (id, name, record) VALUES (?, ?, ?)",
              (long) ((AcctQos) e.getValue()).getId(), e.getKey(), e.getValue().toByteArray());
        } else {
          exec(c, "INSERT INTO " + table + " (name, record) VALUES (?, ?)", e.getKey(), e.getValue().toByteArray());
        }
      } else if (!Objects.equals(old, e.getValue())) {
        exec(c, "UPDATE " + table + " SET record = ? WHERE name = ?", e.getValue().toByteArray(), e.getKey());
      }
    }
  }

  private static void exec(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        if (args[i] instanceof byte[] b) {
          st.setBytes(i + 1, b);
        } else if (args[i] instanceof Long l) {
          st.setLong(i + 1, l);
        } else {
          st.setString(i + 1, (String) args[i]);
        }
      }
      st.executeUpdate();
    }
  }
}

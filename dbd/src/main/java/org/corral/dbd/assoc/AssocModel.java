package org.corral.dbd.assoc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctCoord;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctWckey;
import org.corral.protocol.msg.AssocSnapshot;

/**
 * Clusters, accounts, users, coordinators, associations and QOS in memory, and the rules that
 * keep them a tree: an association's cluster, account, user and parent exist, QOS named exist,
 * an account is removed with its users' associations but never while sub-accounts hang under it.
 * Pure: the store loads one, applies a request's changes to a copy and writes the difference.
 */
final class AssocModel {
  /** An association's key. */
  record Key(String cluster, String account, String user, String partition) implements Comparable<Key> {
    static Key of(AcctAssoc a) {
      return new Key(a.getCluster(), a.getAccount(), a.getUser(), a.getPartition());
    }

    @Override
    public int compareTo(Key o) {
      int c = cluster.compareTo(o.cluster);
      c = c != 0 ? c : account.compareTo(o.account);
      c = c != 0 ? c : user.compareTo(o.user);
      return c != 0 ? c : partition.compareTo(o.partition);
    }
  }

  final Map<String, AcctCluster> clusters = new TreeMap<>();
  final Map<String, AcctAccount> accounts = new TreeMap<>();
  final Map<String, AcctUser> users = new TreeMap<>();
  final TreeSet<Coord> coords = new TreeSet<>();
  final Map<Key, AcctAssoc> assocs = new TreeMap<>();
  final Map<String, AcctQos> qos = new TreeMap<>();
  final Map<WckeyKey, AcctWckey> wckeys = new TreeMap<>();

  /** A wckey's key: Slurm lists them by cluster, name and user. */
  record WckeyKey(String cluster, String name, String user) implements Comparable<WckeyKey> {
    static WckeyKey of(AcctWckey w) {
      return new WckeyKey(w.getCluster(), w.getName(), w.getUser());
    }

    @Override
    public int compareTo(WckeyKey o) {
      int c = cluster.compareTo(o.cluster);
      c = c != 0 ? c : name.compareTo(o.name);
      return c != 0 ? c : user.compareTo(o.user);
    }
  }

  record Coord(String user, String account) implements Comparable<Coord> {
    @Override
    public int compareTo(Coord o) {
      int c = user.compareTo(o.user);
      return c != 0 ? c : account.compareTo(o.account);
    }
  }

  AssocModel copy() {
    AssocModel m = new AssocModel();
    m.clusters.putAll(clusters);
    m.accounts.putAll(accounts);
    m.users.putAll(users);
    m.coords.addAll(coords);
    m.assocs.putAll(assocs);
    m.qos.putAll(qos);
    m.wckeys.putAll(wckeys);
    return m;
  }

  /** What one cluster's associations look like ("" or null: every cluster). */
  AssocSnapshot snapshot(String cluster) {
    boolean all = cluster == null || cluster.isEmpty();
    AssocSnapshot.Builder b = AssocSnapshot.newBuilder();
    clusters.values().stream().filter(c -> all || c.getName().equals(cluster)).forEach(b::addClusters);
    b.addAllAccounts(accounts.values());
    for (AcctUser u : users.values()) {
      AcctUser.Builder ub = u.toBuilder().clearCoordAccounts();
      coords.stream().filter(c -> c.user().equals(u.getName())).forEach(c -> ub.addCoordAccounts(c.account()));
      b.addUsers(ub);
    }
    assocs.values().stream().filter(a -> all || a.getCluster().equals(cluster)).forEach(b::addAssocs);
    b.addAllQos(qos.values());
    wckeys.values().stream().filter(w -> all || w.getCluster().equals(cluster)).forEach(b::addWckeys);
    return b.build();
  }

  /** The accounts at or under {@code account} on any cluster (its sub-accounts, transitively). */
  TreeSet<String> subtree(String account) {
    TreeSet<String> out = new TreeSet<>();
    List<String> todo = new ArrayList<>(List.of(account));
    while (!todo.isEmpty()) {
      String a = todo.remove(todo.size() - 1);
      if (out.add(a)) {
        for (AcctAssoc as : assocs.values()) {
          if (as.getUser().isEmpty() && as.getParentAccount().equals(a)) {
            todo.add(as.getAccount());
          }
        }
      }
    }
    return out;
  }

  void apply(AcctChange ch) throws AcctException {
    switch (ch.getChangeCase()) {
      case ADD_CLUSTER -> {
        AcctCluster c = ch.getAddCluster();
        requireName(c.getName(), "cluster");
        if (clusters.containsKey(c.getName())) {
          throw new AcctException(SlurmError.NO_CHANGE_IN_DATA, "Cluster " + c.getName() + " already exists");
        }
        clusters.put(c.getName(), c);
        if (!assocs.containsKey(new Key(c.getName(), "root", "", ""))) {
          assocs.put(new Key(c.getName(), "root", "", ""), AcctAssoc.newBuilder().setId(nextAssocId())
              .setCluster(c.getName()).setAccount("root").setQosSet(true)
              .addAllQos(qos.containsKey("normal") ? List.of("normal") : List.of()).build());
          assocs.put(new Key(c.getName(), "root", "root", ""), AcctAssoc.newBuilder().setId(nextAssocId())
              .setCluster(c.getName()).setAccount("root").setUser("root").build());
        }
      }
      case PUT_ACCOUNT -> {
        requireName(ch.getPutAccount().getName(), "account");
        accounts.put(ch.getPutAccount().getName(), ch.getPutAccount());
      }
      case PUT_USER -> {
        AcctUser u = ch.getPutUser().toBuilder().clearCoordAccounts().build();
        requireName(u.getName(), "user");
        if (u.getAdminLevel() < 1 || u.getAdminLevel() > 3) {
          throw new AcctException(SlurmError.INVALID_ACCOUNT, "Invalid AdminLevel " + u.getAdminLevel());
        }
        users.put(u.getName(), u);
      }
      case PUT_ASSOC -> putAssoc(ch.getPutAssoc());
      case PUT_QOS -> {
        AcctQos q = ch.getPutQos();
        requireName(q.getName(), "qos");
        AcctQos old = qos.get(q.getName());
        int id = old != null ? old.getId() : qos.values().stream().mapToInt(AcctQos::getId).max().orElse(0) + 1;
        qos.put(q.getName(), q.toBuilder().setId(id).build());
      }
      case ADD_COORD -> {
        AcctCoord c = ch.getAddCoord();
        if (!users.containsKey(c.getUser()) || !accounts.containsKey(c.getAccount())) {
          throw new AcctException(SlurmError.INVALID_ACCOUNT, "Unknown user or account in coordinator "
              + c.getUser() + "/" + c.getAccount());
        }
        coords.add(new Coord(c.getUser(), c.getAccount()));
      }
      case DELETE_COORD -> coords.remove(new Coord(ch.getDeleteCoord().getUser(), ch.getDeleteCoord().getAccount()));
      case DELETE_CLUSTER -> {
        String c = ch.getDeleteCluster();
        clusters.remove(c);
        assocs.keySet().removeIf(k -> k.cluster().equals(c));
        wckeys.keySet().removeIf(k -> k.cluster().equals(c));
      }
      case DELETE_ACCOUNT -> deleteAccount(ch.getDeleteAccount());
      case DELETE_USER -> {
        String u = ch.getDeleteUser();
        users.remove(u);
        coords.removeIf(c -> c.user().equals(u));
        assocs.keySet().removeIf(k -> k.user().equals(u));
        wckeys.keySet().removeIf(k -> k.user().equals(u));
      }
      case PUT_WCKEY -> putWckey(ch.getPutWckey());
      case DELETE_WCKEY -> {
        WckeyKey k = WckeyKey.of(ch.getDeleteWckey());
        wckeys.remove(k);
        AcctUser u = users.get(k.user());
        if (u != null && u.getDefaultWckey().equals(k.name())
            && wckeys.keySet().stream().noneMatch(o -> o.user().equals(k.user()) && o.name().equals(k.name()))) {
          users.put(u.getName(), u.toBuilder().setDefaultWckey("").build());
        }
      }
      case DELETE_ASSOC -> {
        Key k = Key.of(ch.getDeleteAssoc());
        assocs.remove(k);
        if (k.user().isEmpty()) {
          TreeSet<String> under = subtree(k.account());
          assocs.keySet().removeIf(o -> o.cluster().equals(k.cluster()) && under.contains(o.account()));
        }
      }
      case DELETE_QOS -> {
        String q = ch.getDeleteQos();
        qos.remove(q);
        for (AcctAssoc a : List.copyOf(assocs.values())) {
          if (a.getQosList().contains(q) || a.getDefaultQos().equals(q)) {
            List<String> left = a.getQosList().stream().filter(n -> !n.equals(q)).toList();
            assocs.put(Key.of(a), a.toBuilder().clearQos().addAllQos(left)
                .setDefaultQos(a.getDefaultQos().equals(q) ? "" : a.getDefaultQos()).build());
          }
        }
      }
      case CHANGE_NOT_SET -> throw new AcctException(SlurmError.INVALID_ACCOUNT, "empty change");
    }
  }

  private void deleteAccount(String name) throws AcctException {
    if (name.equals("root")) {
      throw new AcctException(SlurmError.INVALID_ACCOUNT, "The root account cannot be removed");
    }
    // As Slurm does: the account's associations go with it, and every association under them
    // (sub-accounts keep their account record but lose their place in the tree).
    TreeSet<String> under = subtree(name);
    accounts.remove(name);
    coords.removeIf(c -> c.account().equals(name));
    assocs.keySet().removeIf(k -> under.contains(k.account()));
  }

  private void putAssoc(AcctAssoc a) throws AcctException {
    if (!clusters.containsKey(a.getCluster())) {
      throw new AcctException(SlurmError.INVALID_ACCOUNT, "Unknown cluster " + a.getCluster());
    }
    if (!accounts.containsKey(a.getAccount())) {
      throw new AcctException(SlurmError.INVALID_ACCOUNT, "Unknown account " + a.getAccount());
    }
    if (!a.getUser().isEmpty() && !users.containsKey(a.getUser())) {
      throw new AcctException(SlurmError.INVALID_ACCOUNT, "Unknown user " + a.getUser());
    }
    String parent = a.getUser().isEmpty() ? a.getParentAccount() : a.getAccount();
    boolean isRoot = a.getUser().isEmpty() && a.getAccount().equals("root");
    if (!isRoot && !assocs.containsKey(new Key(a.getCluster(), parent, "", ""))) {
      throw new AcctException(SlurmError.INVALID_PARENT_ACCOUNT,
          "No association for account " + parent + " on cluster " + a.getCluster());
    }
    if (!isRoot && a.getUser().isEmpty() && subtree(a.getAccount()).contains(parent)) {
      throw new AcctException(SlurmError.INVALID_PARENT_ACCOUNT,
          "Account " + parent + " is under " + a.getAccount());
    }
    for (String q : a.getQosList()) {
      if (!qos.containsKey(q)) {
        throw new AcctException(SlurmError.INVALID_QOS, "Unknown QOS " + q);
      }
    }
    if (!a.getDefaultQos().isEmpty() && !qos.containsKey(a.getDefaultQos())) {
      throw new AcctException(SlurmError.INVALID_QOS, "Unknown QOS " + a.getDefaultQos());
    }
    Key k = Key.of(a);
    AcctAssoc old = assocs.get(k);
    AcctAssoc.Builder b = a.toBuilder().setId(old != null ? old.getId() : nextAssocId());
    if (!a.getUser().isEmpty()) {
      b.setParentAccount("");
    }
    assocs.put(k, b.build());
  }

  private void putWckey(AcctWckey w) throws AcctException {
    requireName(w.getName(), "wckey");
    if (!clusters.containsKey(w.getCluster())) {
      throw new AcctException(SlurmError.INVALID_WCKEY, "Unknown cluster " + w.getCluster());
    }
    if (!users.containsKey(w.getUser())) {
      throw new AcctException(SlurmError.INVALID_WCKEY, "Unknown user " + w.getUser());
    }
    WckeyKey k = WckeyKey.of(w);
    AcctWckey old = wckeys.get(k);
    int id = old != null ? old.getId() : wckeys.values().stream().mapToInt(AcctWckey::getId).max().orElse(0) + 1;
    wckeys.put(k, w.toBuilder().setId(id).build());
  }

  private int nextAssocId() {
    return assocs.values().stream().mapToInt(AcctAssoc::getId).max().orElse(0) + 1;
  }

  private static void requireName(String name, String what) throws AcctException {
    if (name == null || name.isEmpty() || name.length() > 128) {
      throw new AcctException(SlurmError.INVALID_ACCOUNT, "Invalid " + what + " name '" + Objects.toString(name) + "'");
    }
  }
}

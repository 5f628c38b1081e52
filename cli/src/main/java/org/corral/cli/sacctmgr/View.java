package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;

/**
 * A snapshot from slurmdbd read as Slurm presents it: associations as a tree per cluster,
 * QOS lists and Max* limits inherited from the parent when not set, users' default accounts
 * only while they have an association there.
 */
final class View {
  record Key(String cluster, String account, String user, String partition) {
    static Key of(AcctAssoc a) {
      return new Key(a.getCluster(), a.getAccount(), a.getUser(), a.getPartition());
    }
  }

  final AssocSnapshot snap;
  final Map<Key, AcctAssoc> assocs = new TreeMap<>(Comparator.comparing(Key::cluster)
      .thenComparing(Key::account).thenComparing(Key::user).thenComparing(Key::partition));

  View(AssocSnapshot snap) {
    this.snap = snap;
    snap.getAssocsList().forEach(a -> assocs.put(Key.of(a), a));
  }

  AcctAssoc parent(AcctAssoc a) {
    if (!a.getUser().isEmpty()) {
      return assocs.get(new Key(a.getCluster(), a.getAccount(), "", ""));
    }
    return a.getParentAccount().isEmpty() ? null : assocs.get(new Key(a.getCluster(), a.getParentAccount(), "", ""));
  }

  /** The QOS an association has: its own, else its parent's (names sorted, comma-joined). */
  String qos(AcctAssoc a) {
    for (AcctAssoc x = a; x != null; x = parent(x)) {
      if (x.getQosSet()) {
        return String.join(",", new TreeSet<>(x.getQosList()));
      }
    }
    return "";
  }

  String defaultQos(AcctAssoc a) {
    for (AcctAssoc x = a; x != null; x = parent(x)) {
      if (!x.getDefaultQos().isEmpty()) {
        return x.getDefaultQos();
      }
    }
    return "";
  }

  /** A Max* limit: its own, else the nearest ancestor's. */
  AcctLimits inherited(AcctAssoc a) {
    AcctLimits.Builder b = a.getLimits().toBuilder();
    for (AcctAssoc x = parent(a); x != null; x = parent(x)) {
      AcctLimits l = x.getLimits();
      if (!b.hasMaxJobs() && l.hasMaxJobs()) {
        b.setMaxJobs(l.getMaxJobs());
      }
      if (!b.hasMaxSubmitJobs() && l.hasMaxSubmitJobs()) {
        b.setMaxSubmitJobs(l.getMaxSubmitJobs());
      }
      if (!b.hasMaxWallMinutes() && l.hasMaxWallMinutes()) {
        b.setMaxWallMinutes(l.getMaxWallMinutes());
      }
      if (b.getMaxTresPerJob().isEmpty()) {
        b.setMaxTresPerJob(l.getMaxTresPerJob());
      }
      if (b.getMaxTresMinsPerJob().isEmpty()) {
        b.setMaxTresMinsPerJob(l.getMaxTresMinsPerJob());
      }
    }
    return b.build();
  }

  String defaultAccount(AcctUser u) {
    String d = u.getDefaultAccount();
    return assocs.values().stream().anyMatch(a -> a.getUser().equals(u.getName()) && a.getAccount().equals(d)) ? d : "";
  }

  /** An association and its depth in the tree. */
  record Placed(AcctAssoc assoc, int depth) {}

  /**
   * Slurm's hierarchical order (sacctmgr show assoc): each account's user associations, then its
   * sub-accounts, each group by name.
   */
  List<Placed> hierarchical(String cluster) {
    List<Placed> out = new ArrayList<>();
    AcctAssoc root = assocs.get(new Key(cluster, "root", "", ""));
    if (root != null) {
      walk(root, 0, out, Comparator.comparing((AcctAssoc a) -> a.getUser().isEmpty())
          .thenComparing(a -> a.getUser().isEmpty() ? a.getAccount() : a.getUser()).thenComparing(AcctAssoc::getPartition));
    }
    return out;
  }

  /**
   * The database's order (lft): a new child goes first under its parent, so children come
   * newest first.
   */
  List<Placed> stored(String cluster) {
    List<Placed> out = new ArrayList<>();
    AcctAssoc root = assocs.get(new Key(cluster, "root", "", ""));
    if (root != null) {
      walk(root, 0, out, Comparator.comparingInt(AcctAssoc::getId).reversed());
    }
    return out;
  }

  private void walk(AcctAssoc a, int depth, List<Placed> out, Comparator<AcctAssoc> order) {
    out.add(new Placed(a, depth));
    if (!a.getUser().isEmpty()) {
      return;
    }
    List<AcctAssoc> kids = new ArrayList<>();
    for (AcctAssoc c : assocs.values()) {
      if (c.getCluster().equals(a.getCluster()) && c != a && (c.getUser().isEmpty()
          ? c.getParentAccount().equals(a.getAccount()) : c.getAccount().equals(a.getAccount()))) {
        kids.add(c);
      }
    }
    kids.sort(order);
    for (AcctAssoc c : kids) {
      walk(c, depth + 1, out, order);
    }
  }

  List<String> clusters() {
    return snap.getClustersList().stream().map(c -> c.getName()).sorted().toList();
  }

  /** Every association in stored order, cluster by cluster. */
  List<Placed> allStored() {
    List<Placed> out = new ArrayList<>();
    clusters().forEach(c -> out.addAll(stored(c)));
    return out;
  }
}

package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.corral.cli.sacctmgr.Columns.Row;
import org.corral.cli.sacctmgr.Table.Column;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;

/** sacctmgr show|list ENTITY: the rows a snapshot has for it, in Slurm's order and columns. */
final class Show {
  /** Slurm's TRES table as a new database has it. */
  static final String[][] TRES = {{"cpu", "", "1"}, {"mem", "", "2"}, {"energy", "", "3"}, {"node", "", "4"},
      {"billing", "", "5"}, {"fs", "disk", "6"}, {"vmem", "", "7"}, {"pages", "", "8"}};

  private Show() {}

  record Listing(List<Column<Row>> known, String defaults, List<Row> rows) {}

  /** The listing for {@code entity} (already resolved), or null when there is nothing to list. */
  static Listing listing(String entity, Args a, View v) {
    List<Row> rows = new ArrayList<>();
    switch (entity) {
      case "account" -> {
        List<String> names = lower(a.cond("names"));
        names.addAll(lower(a.cond("account")));
        for (AcctAccount acct : v.snap.getAccountsList().stream()
            .sorted(java.util.Comparator.comparing(AcctAccount::getName)).toList()) {
          if (!names.isEmpty() && !names.contains(acct.getName())) {
            continue;
          }
          if (!a.withAssoc) {
            rows.add(new Row(v, acct, null, null, 0, null, null, null));
            continue;
          }
          for (View.Placed p : v.allStored()) {
            if (p.assoc().getAccount().equals(acct.getName()) && assocMatches(a, p.assoc())) {
              rows.add(new Row(v, acct, null, p.assoc(), 0, null, null, null));
            }
          }
        }
        return new Listing(Columns.account(), a.withAssoc ? Columns.ACCOUNT_ASSOC : Columns.ACCOUNT, rows);
      }
      case "user" -> {
        List<String> names = lower(a.cond("names"));
        names.addAll(lower(a.cond("user")));
        for (AcctUser u : v.snap.getUsersList().stream()
            .sorted(java.util.Comparator.comparing(AcctUser::getName)).toList()) {
          if (!names.isEmpty() && !names.contains(u.getName())) {
            continue;
          }
          if (!a.withAssoc) {
            rows.add(new Row(v, null, u, null, 0, null, null, null));
            continue;
          }
          List<AcctAssoc> mine = new ArrayList<>();
          for (View.Placed p : v.allStored()) {
            if (p.assoc().getUser().equals(u.getName()) && assocMatches(a, p.assoc())) {
              mine.add(p.assoc());
            }
          }
          mine.forEach(x -> rows.add(new Row(v, null, u, x, 0, null, null, null)));
        }
        String cols = Columns.USER + (a.withCoord ? ",coord" : "") + (a.withAssoc ? "," + Columns.USER_ASSOC : "");
        return new Listing(Columns.user(), cols, rows);
      }
      case "association" -> {
        for (String c : v.clusters()) {
          for (View.Placed p : v.hierarchical(c)) {
            if (assocMatches(a, p.assoc())) {
              rows.add(Row.assoc(v, p.assoc(), p.depth()));
            }
          }
        }
        return new Listing(Columns.assoc(a.tree), a.tree ? "account,user,share" : Columns.ASSOC, rows);
      }
      case "qos" -> {
        List<String> names = lower(a.cond("names"));
        List<AcctQos> qs = new ArrayList<>(v.snap.getQosList());
        qs.sort((x, y) -> Integer.compare(x.getId(), y.getId()));
        for (AcctQos q : qs) {
          if (names.isEmpty() || names.contains(q.getName())) {
            rows.add(new Row(v, null, null, null, 0, q, null, null));
          }
        }
        return new Listing(Columns.qos(), Columns.QOS, rows);
      }
      case "cluster" -> {
        List<String> names = lower(a.cond("names"));
        names.addAll(lower(a.cond("cluster")));
        for (AcctCluster c : v.snap.getClustersList()) {
          if (names.isEmpty() || names.contains(c.getName())) {
            AcctAssoc root = v.assocs.get(new View.Key(c.getName(), "root", "", ""));
            rows.add(new Row(v, null, null, root, 0, null, c, null));
          }
        }
        return new Listing(Columns.cluster(), Columns.CLUSTER, rows);
      }
      case "tres" -> {
        List<String> names = a.cond("names");
        for (String[] t : TRES) {
          if (names.isEmpty() || names.contains(t[0]) || names.contains(t[0] + "/" + t[1])) {
            rows.add(new Row(v, null, null, null, 0, null, null, t));
          }
        }
        return new Listing(Columns.tres(), "type,name,id", rows);
      }
      default -> {
        return null;
      }
    }
  }

  private static boolean assocMatches(Args a, AcctAssoc x) {
    return in(a.cond("cluster"), x.getCluster()) && in(a.cond("account"), x.getAccount())
        && in(a.cond("user"), x.getUser()) && in(a.cond("partition"), x.getPartition())
        && in(a.cond("parent"), x.getParentAccount())
        && (a.cond("id").isEmpty() || a.cond("id").contains(Integer.toString(x.getId())));
  }

  private static boolean in(List<String> wanted, String v) {
    Predicate<String> eq = s -> s.equalsIgnoreCase(v);
    return wanted.isEmpty() || wanted.stream().anyMatch(eq);
  }

  private static List<String> lower(List<String> l) {
    List<String> out = new ArrayList<>();
    l.forEach(s -> out.add(s.toLowerCase(Locale.ROOT)));
    return out;
  }
}

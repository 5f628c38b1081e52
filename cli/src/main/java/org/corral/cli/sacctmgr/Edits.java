package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCoord;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctWckey;

/** sacctmgr modify and delete: what matches, the changes, and Slurm's lines. */
final class Edits {
  private Edits() {}

  private static String f(String fmt, Object... a) {
    return String.format(Locale.ROOT, fmt, a);
  }

  private static List<String> names(Args a, String key) {
    List<String> out = new ArrayList<>();
    a.cond("names").forEach(s -> out.add(s.toLowerCase(Locale.ROOT)));
    a.cond(key).forEach(s -> out.add(s.toLowerCase(Locale.ROOT)));
    return out;
  }

  private static boolean in(List<String> l, String v) {
    return l.isEmpty() || l.contains(v);
  }

  private static boolean assocWhere(Args a, AcctAssoc x) {
    return in(lower(a.cond("cluster")), x.getCluster()) && in(lower(a.cond("partition")), x.getPartition());
  }

  private static List<String> lower(List<String> l) {
    return l.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
  }

  static Plan modifyUser(Args a, View v) throws Limits.BadValue {
    List<String> users = names(a, "user");
    List<String> accounts = lower(a.cond("account"));
    Plan p = new Plan("modifying users");
    List<String> userLines = new ArrayList<>();
    List<String> assocLines = new ArrayList<>();
    String admin = null;
    String def = null;
    String defWckey = null;
    for (Args.Opt o : a.set) {
      if (o.key().equals("adminlevel")) {
        admin = o.value();
      } else if (o.key().equals("defaultwckey")) {
        defWckey = o.value();
      } else if (o.key().equals("defaultaccount")) {
        def = o.value().toLowerCase(Locale.ROOT);
      } else if (!Limits.isAssocKey(o.key())) {
        throw new Limits.BadValue("Unknown option: " + o.key() + o.op() + o.value());
      }
    }
    List<Args.Opt> limits = a.set.stream().filter(o -> Limits.isAssocKey(o.key())).toList();
    for (AcctUser u : v.snap.getUsersList()) {
      if (users.isEmpty() && accounts.isEmpty() || !in(users, u.getName())) {
        continue;
      }
      if (admin != null || def != null || defWckey != null) {
        AcctUser.Builder b = u.toBuilder().clearCoordAccounts();
        if (defWckey != null) {
          b.setDefaultWckey(defWckey);
        }
        if (admin != null) {
          int level = Adds.adminLevel(admin);
          if (level == 0) {
            throw new Limits.BadValue("Unknown AdminLevel '" + admin + "'");
          }
          b.setAdminLevel(level);
        }
        if (def != null) {
          b.setDefaultAccount(def);
        }
        userLines.add("  " + u.getName());
        p.changes.add(AcctChange.newBuilder().setPutUser(b).build());
      }
      if (!limits.isEmpty()) {
        for (View.Placed pl : v.allStored()) {
          AcctAssoc x = pl.assoc();
          if (x.getUser().equals(u.getName()) && in(accounts, x.getAccount()) && assocWhere(a, x)) {
            AcctAssoc.Builder b = x.toBuilder();
            Limits.apply(b, limits, Adds.inherited(v, b));
            p.changes.add(AcctChange.newBuilder().setPutAssoc(b).build());
            assocLines.add(f("  C = %-10.10s A = %-20.20s U = %-9.9s", x.getCluster(), x.getAccount(), x.getUser())
                + (x.getPartition().isEmpty() ? "" : " P = " + x.getPartition()));
          }
        }
      }
    }
    if (p.changes.isEmpty()) {
      return Plan.refuse(" Nothing modified\n", false);
    }
    if (!userLines.isEmpty()) {
      p.line(" Modified users...");
      userLines.forEach(p::line);
    }
    if (!assocLines.isEmpty()) {
      p.line(" Modified user associations...");
      assocLines.forEach(p::line);
    }
    return p;
  }

  static Plan modifyAccount(Args a, View v) throws Limits.BadValue {
    List<String> accounts = names(a, "account");
    Plan p = new Plan("modifying accounts");
    List<Args.Opt> limits = new ArrayList<>();
    String descr = null;
    String org = null;
    for (Args.Opt o : a.set) {
      switch (o.key()) {
        case "description" -> descr = o.value();
        case "organization" -> org = o.value();
        default -> {
          if (!Limits.isAssocKey(o.key())) {
            throw new Limits.BadValue("Unknown option: " + o.key() + o.op() + o.value());
          }
          limits.add(o);
        }
      }
    }
    List<String> acctLines = new ArrayList<>();
    List<String> assocLines = new ArrayList<>();
    for (AcctAccount acct : v.snap.getAccountsList()) {
      if (accounts.isEmpty() || !accounts.contains(acct.getName())) {
        continue;
      }
      if (descr != null || org != null) {
        AcctAccount.Builder b = acct.toBuilder();
        if (descr != null) {
          b.setDescription(descr);
        }
        if (org != null) {
          b.setOrganization(org);
        }
        acctLines.add("  " + acct.getName());
        p.changes.add(AcctChange.newBuilder().setPutAccount(b).build());
      }
      if (!limits.isEmpty()) {
        for (View.Placed pl : v.allStored()) {
          AcctAssoc x = pl.assoc();
          if (x.getUser().isEmpty() && x.getAccount().equals(acct.getName()) && assocWhere(a, x)) {
            AcctAssoc.Builder b = x.toBuilder();
            Limits.apply(b, limits, Adds.inherited(v, b));
            p.changes.add(AcctChange.newBuilder().setPutAssoc(b).build());
            assocLines.add(f("  C = %-10.10s A = %s of %s", x.getCluster(), x.getAccount(), x.getParentAccount()));
          }
        }
      }
    }
    if (p.changes.isEmpty()) {
      return Plan.refuse(" Nothing modified\n", false);
    }
    if (!acctLines.isEmpty()) {
      p.line(" Modified accounts...");
      acctLines.forEach(p::line);
    }
    if (!assocLines.isEmpty()) {
      p.line(" Modified account associations...");
      assocLines.forEach(p::line);
    }
    return p;
  }

  static Plan modifyQos(Args a, View v) throws Limits.BadValue {
    List<String> names = names(a, "names");
    Plan p = new Plan("modifying QOS");
    for (AcctQos q : v.snap.getQosList()) {
      if (!names.isEmpty() && names.contains(q.getName())) {
        AcctQos.Builder b = q.toBuilder();
        Limits.applyQos(b, a.set);
        p.changes.add(AcctChange.newBuilder().setPutQos(b).build());
      }
    }
    if (p.changes.isEmpty()) {
      return Plan.refuse(" Nothing modified\n", false);
    }
    p.line(" Modified qos...");
    p.changes.forEach(c -> p.line("  " + c.getPutQos().getName()));
    return p;
  }

  static Plan delete(String entity, Args a, View v) {
    switch (entity) {
      case "account" -> {
        List<String> names = names(a, "account");
        if (!a.cond("cluster").isEmpty()) {
          Plan p = new Plan("deleting account associations");
          for (View.Placed pl : v.allStored()) {
            AcctAssoc x = pl.assoc();
            if (x.getUser().isEmpty() && names.contains(x.getAccount()) && assocWhere(a, x)) {
              p.changes.add(AcctChange.newBuilder().setDeleteAssoc(x).build());
              p.line(f("  C = %-10.10s A = %-10.10s", x.getCluster(), x.getAccount()));
            }
          }
          return done(p, " Deleting account associations...");
        }
        Plan p = new Plan("deleting accounts");
        for (AcctAccount acct : v.snap.getAccountsList()) {
          if (names.contains(acct.getName())) {
            p.changes.add(AcctChange.newBuilder().setDeleteAccount(acct.getName()).build());
            p.line("  " + acct.getName());
          }
        }
        return done(p, " Deleting accounts...");
      }
      case "user" -> {
        List<String> names = names(a, "user");
        if (!a.cond("wckeys").isEmpty()) {
          Plan p = new Plan("deleting user wckeys");
          for (AcctWckey w : v.snap.getWckeysList()) {
            if (names.contains(w.getUser()) && a.cond("wckeys").contains(w.getName()) && in(lower(a.cond("cluster")),
                w.getCluster())) {
              p.changes.add(AcctChange.newBuilder().setDeleteWckey(w).build());
              p.line(f("  C = %-10.10s W = %-20.20s U = %-9.9s", w.getCluster(), w.getName(), w.getUser()));
            }
          }
          return done(p, " Deleting user WCKeys...");
        }
        if (!a.cond("account").isEmpty() || !a.cond("cluster").isEmpty() || !a.cond("partition").isEmpty()) {
          Plan p = new Plan("deleting user associations");
          List<String> accounts = lower(a.cond("account"));
          for (View.Placed pl : v.allStored()) {
            AcctAssoc x = pl.assoc();
            if (!x.getUser().isEmpty() && names.contains(x.getUser()) && in(accounts, x.getAccount()) && assocWhere(a, x)) {
              p.changes.add(AcctChange.newBuilder().setDeleteAssoc(x).build());
              p.line(f("  C = %-10.10s A = %-10.10s U = %-9.9s", x.getCluster(), x.getAccount(), x.getUser()));
            }
          }
          return done(p, " Deleting user associations...");
        }
        Plan p = new Plan("deleting users");
        for (AcctUser u : v.snap.getUsersList()) {
          if (names.contains(u.getName())) {
            p.changes.add(AcctChange.newBuilder().setDeleteUser(u.getName()).build());
            p.line("  " + u.getName());
          }
        }
        return done(p, " Deleting users...");
      }
      case "qos" -> {
        List<String> names = names(a, "names");
        Plan p = new Plan("deleting QOS");
        for (AcctQos q : v.snap.getQosList()) {
          if (names.contains(q.getName())) {
            p.changes.add(AcctChange.newBuilder().setDeleteQos(q.getName()).build());
            p.line("  " + q.getName());
          }
        }
        return done(p, " Deleting QOS(s)...");
      }
      case "cluster" -> {
        List<String> names = names(a, "cluster");
        Plan p = new Plan("deleting clusters");
        for (String c : v.clusters()) {
          if (names.contains(c)) {
            p.changes.add(AcctChange.newBuilder().setDeleteCluster(c).build());
            p.line("  " + c);
          }
        }
        return done(p, " Deleting clusters...");
      }
      case "coordinator" -> {
        List<String> users = names(a, "user");
        List<String> accounts = lower(a.cond("account"));
        Plan p = new Plan("removing coordinators");
        for (AcctUser u : v.snap.getUsersList()) {
          if (users.contains(u.getName())) {
            for (String x : u.getCoordAccountsList()) {
              if (in(accounts, x)) {
                p.changes.add(AcctChange.newBuilder().setDeleteCoord(AcctCoord.newBuilder().setUser(u.getName())
                    .setAccount(x)).build());
                p.line(f("  %-9.9s - %s", u.getName(), x));
              }
            }
          }
        }
        return done(p, " Removing Coordinators with user name and accounts...");
      }
      default -> {
        return null;
      }
    }
  }

  private static Plan done(Plan p, String title) {
    if (p.changes.isEmpty()) {
      return Plan.refuse(" Nothing deleted\n", false);
    }
    String body = p.out.toString();
    p.out.setLength(0);
    p.line(title);
    p.out.append(body);
    return p;
  }
}

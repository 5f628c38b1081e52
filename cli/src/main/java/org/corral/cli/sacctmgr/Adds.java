package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctCoord;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctWckey;

/** sacctmgr add ENTITY: what is new, printed as Slurm prints it. */
final class Adds {
  private Adds() {}

  /** The QOS an association being built would inherit (its parent's). */
  static List<String> inherited(View v, AcctAssoc.Builder b) {
    AcctAssoc probe = b.clone().setQosSet(false).build();
    String q = v.qos(probe);
    return q.isEmpty() ? List.of() : List.of(q.split(","));
  }

  private static String f(String fmt, Object... a) {
    return String.format(Locale.ROOT, fmt, a);
  }

  private static List<Args.Opt> all(Args a) {
    List<Args.Opt> o = new ArrayList<>(a.where);
    o.addAll(a.set);
    return o;
  }

  private static String one(List<Args.Opt> opts, String key) {
    String v = null;
    for (Args.Opt o : opts) {
      if (o.key().equals(key)) {
        v = o.value();
      }
    }
    return v;
  }

  private static List<String> many(List<Args.Opt> opts, String key) {
    List<String> out = new ArrayList<>();
    opts.stream().filter(o -> o.key().equals(key)).forEach(o -> out.addAll(o.list()));
    return out;
  }

  private static List<String> lower(List<String> in) {
    return in.stream().map(s -> s.toLowerCase(Locale.ROOT)).distinct().toList();
  }

  private static List<String> clusters(List<Args.Opt> opts, View v) {
    List<String> c = lower(many(opts, "cluster"));
    return c.isEmpty() ? v.clusters() : c;
  }

  static Plan account(Args a, View v) throws Limits.BadValue {
    List<Args.Opt> opts = all(a);
    List<String> names = new ArrayList<>(lower(a.names));
    names.addAll(lower(many(opts, "names")));
    String parent = one(opts, "parent");
    parent = parent == null ? "root" : parent.toLowerCase(Locale.ROOT);
    String descr = one(opts, "description");
    String org = one(opts, "organization");
    List<String> clusters = clusters(opts, v);
    for (String c : clusters) {
      if (!v.assocs.containsKey(new View.Key(c, parent, "", ""))) {
        return Plan.refuse(" Parent account '" + parent + "' doesn't exist on cluster " + c + "\n"
            + "        Contact your admin to add this account.\n No associations created.\n", true);
      }
    }
    Plan p = new Plan("adding accounts");
    Set<String> existing = new java.util.HashSet<>();
    v.snap.getAccountsList().forEach(x -> existing.add(x.getName()));
    List<String> fresh = names.stream().filter(n -> !existing.contains(n)).toList();
    if (!fresh.isEmpty()) {
      p.line(" Adding Account(s)");
      fresh.forEach(n -> p.line("  " + n));
      p.line(" Settings");
      p.line("  Description     = " + (descr == null ? "Account Name" : descr));
      p.line("  Organization    = " + (org == null ? "Parent/Account Name" : org));
      for (String n : fresh) {
        p.changes.add(AcctChange.newBuilder().setPutAccount(AcctAccount.newBuilder().setName(n)
            .setDescription(descr == null ? n : descr)
            .setOrganization(org == null ? (parent.equals("root") ? n : parent) : org)).build());
      }
    }
    List<String> assocLines = new ArrayList<>();
    List<Args.Opt> limits = opts.stream().filter(o -> Limits.isAssocKey(o.key())).toList();
    for (String n : names) {
      for (String c : clusters) {
        if (!v.assocs.containsKey(new View.Key(c, n, "", ""))) {
          assocLines.add(f("  A = %-10.10s C = %-10.10s", n, c));
          AcctAssoc.Builder b = AcctAssoc.newBuilder().setCluster(c).setAccount(n).setParentAccount(parent);
          Limits.apply(b, limits, inherited(v, b));
          p.changes.add(AcctChange.newBuilder().setPutAssoc(b).build());
        }
      }
    }
    if (p.changes.isEmpty()) {
      return Plan.refuse(" Nothing new added.\n", false);
    }
    if (!assocLines.isEmpty()) {
      p.line(" Associations");
      assocLines.forEach(p::line);
      boolean anyOption = opts.stream().anyMatch(o -> !o.key().equals("cluster") && !o.key().equals("names"));
      if (anyOption) {
        p.line(" Settings");
        Limits.assocLines(limits, parent).forEach(p::line);
      }
    }
    return p;
  }

  static Plan user(Args a, View v) throws Limits.BadValue {
    List<Args.Opt> opts = all(a);
    List<String> names = new ArrayList<>(lower(a.names));
    names.addAll(lower(many(opts, "names")));
    List<String> accounts = new ArrayList<>(lower(many(opts, "account")));
    String def = one(opts, "defaultaccount");
    if (def != null) {
      def = def.toLowerCase(Locale.ROOT);
      if (!accounts.contains(def)) {
        accounts.add(def);
      }
    }
    List<String> wckeys = new ArrayList<>(new LinkedHashSet<>(many(opts, "wckeys")));
    String defWckey = one(opts, "defaultwckey");
    if (defWckey != null && !wckeys.contains(defWckey)) {
      wckeys.add(defWckey);
    }
    if (accounts.isEmpty() && wckeys.isEmpty()) {
      return Plan.refuse(" Need name of account to add user to.\n", true);
    }
    Set<String> known = new java.util.HashSet<>();
    v.snap.getAccountsList().forEach(x -> known.add(x.getName()));
    for (String acct : accounts) {
      if (!known.contains(acct)) {
        return Plan.refuse(" This account '" + acct + "' doesn't exist.\n"
            + "        Contact your admin to add this account.\n No associations or wckeys created.\n", true);
      }
    }
    String admin = one(opts, "adminlevel");
    int level = admin == null ? 1 : adminLevel(admin);
    if (level == 0) {
      throw new Limits.BadValue("Unknown AdminLevel '" + admin + "'");
    }
    String partition = one(opts, "partition");
    List<Args.Opt> limits = opts.stream().filter(o -> Limits.isAssocKey(o.key())).toList();
    Set<String> users = new java.util.HashSet<>();
    v.snap.getUsersList().forEach(x -> users.add(x.getName()));
    Plan p = new Plan("adding users");
    List<String> fresh = names.stream().filter(n -> !users.contains(n)).toList();
    if (!fresh.isEmpty()) {
      p.line(" Adding User(s)");
      fresh.forEach(n -> p.line("  " + n));
      if (def != null || admin != null || defWckey != null) {
        p.line(" Settings =");
        if (def != null) {
          p.line("  Default Account = " + def);
        }
        if (defWckey != null) {
          p.line("  Default WCKey   = " + defWckey);
        }
        if (admin != null) {
          p.line("  Admin Level     = " + new String[] {"", "None", "Operator", "Administrator"}[level]);
        }
      }
      for (String n : fresh) {
        p.changes.add(AcctChange.newBuilder().setPutUser(AcctUser.newBuilder().setName(n)
            .setDefaultAccount(def != null ? def : accounts.isEmpty() ? "" : accounts.get(0)).setAdminLevel(level)
            .setDefaultWckey(defWckey != null ? defWckey : wckeys.isEmpty() ? "" : wckeys.get(0))).build());
      }
    }
    List<String> lines = new ArrayList<>();
    for (String n : names) {
      for (String acct : accounts.reversed()) {
        for (String c : clusters(opts, v)) {
          if (!v.assocs.containsKey(new View.Key(c, acct, "", ""))) {
            return Plan.refuse(" This account '" + acct + "' doesn't exist on cluster " + c + "\n"
                + "        Contact your admin to add this account.\n No associations or wckeys created.\n", true);
          }
          String part = partition == null ? "" : partition;
          if (!v.assocs.containsKey(new View.Key(c, acct, n, part))) {
            lines.add(f("  U = %-9.9s A = %-10.10s C = %-10.10s", n, acct, c) + (part.isEmpty() ? "" : " P = " + part));
            AcctAssoc.Builder b = AcctAssoc.newBuilder().setCluster(c).setAccount(acct).setUser(n).setPartition(part);
            Limits.apply(b, limits, inherited(v, b));
            p.changes.add(AcctChange.newBuilder().setPutAssoc(b).build());
          }
        }
      }
    }
    // a user's wckeys, last named first as Slurm lists them
    List<String> wckeyLines = new ArrayList<>();
    Set<String> held = new java.util.HashSet<>();
    v.snap.getWckeysList().forEach(w -> held.add(w.getCluster() + "\0" + w.getName() + "\0" + w.getUser()));
    for (String n : names) {
      for (String w : wckeys.reversed()) {
        for (String c : clusters(opts, v)) {
          if (!held.contains(c + "\0" + w + "\0" + n)) {
            wckeyLines.add(f("  U = %-9.9s W = %-10.10s C = %-10.10s", n, w, c));
            p.changes.add(AcctChange.newBuilder().setPutWckey(AcctWckey.newBuilder().setCluster(c).setName(w)
                .setUser(n)).build());
          }
        }
      }
    }
    if (p.changes.isEmpty()) {
      return Plan.refuse(" Nothing new added.\n", false);
    }
    if (!lines.isEmpty()) {
      p.line(" Associations =");
      lines.forEach(p::line);
    }
    if (!wckeyLines.isEmpty()) {
      p.line(" WCKeys =");
      wckeyLines.forEach(p::line);
    }
    if (!lines.isEmpty()) {
      p.line(" Non Default Settings");
      Limits.assocLines(limits, null).forEach(p::line);
    }
    return p;
  }

  static int adminLevel(String s) {
    String l = s.toLowerCase(Locale.ROOT);
    if (l.startsWith("a")) {
      return 3;
    }
    if (l.startsWith("o")) {
      return 2;
    }
    return l.startsWith("n") ? 1 : 0;
  }

  static Plan qos(Args a, View v) throws Limits.BadValue {
    List<Args.Opt> opts = all(a);
    List<String> names = new ArrayList<>(lower(a.names));
    names.addAll(lower(many(opts, "names")));
    Set<String> known = new java.util.HashSet<>();
    v.snap.getQosList().forEach(q -> known.add(q.getName()));
    List<String> fresh = new ArrayList<>(new LinkedHashSet<>(names.stream().filter(n -> !known.contains(n)).toList()));
    if (fresh.isEmpty()) {
      return Plan.refuse(" Nothing new added.\n", false);
    }
    List<Args.Opt> settings = opts.stream().filter(o -> !o.key().equals("names")).toList();
    Plan p = new Plan("adding QOS");
    p.line(" Adding QOS(s)");
    fresh.forEach(n -> p.line("  " + n));
    p.line(" Settings");
    String descr = one(settings, "description");
    p.line("  Description    = " + (descr == null ? fresh.get(0) : descr));
    List<String> lines = null;
    for (String n : fresh) {
      AcctQos.Builder q = AcctQos.newBuilder().setName(n).setDescription(descr == null ? n : descr);
      lines = Limits.applyQos(q, settings.stream().sorted(Limits.QOS_ORDER).toList());
      p.changes.add(AcctChange.newBuilder().setPutQos(q).build());
    }
    lines.forEach(p::line);
    return p;
  }

  static Plan cluster(Args a, View v) {
    // The words name the clusters once, however they are given (NAME, Name=NAME, Names=NAME).
    Set<String> names = new LinkedHashSet<>(lower(a.names));
    names.addAll(lower(a.cond("names")));
    StringBuilder known = new StringBuilder();
    names.stream().filter(n -> v.clusters().contains(n))
        .forEach(n -> known.append(" This cluster ").append(n).append(" already exists.  Not adding.\n"));
    List<String> fresh = names.stream().filter(n -> !v.clusters().contains(n)).toList();
    if (fresh.isEmpty()) {
      return Plan.refuse(known.isEmpty() ? " Nothing new added.\n" : known.toString(), false);
    }
    Plan p = new Plan("adding clusters");
    known.toString().lines().forEach(p::line);
    p.line(" Adding Cluster(s)");
    for (String n : fresh) {
      p.line("  Name           = " + n);
      p.changes.add(AcctChange.newBuilder().setAddCluster(AcctCluster.newBuilder().setName(n)).build());
    }
    return p;
  }

  static Plan coordinator(Args a, View v) {
    List<Args.Opt> opts = all(a);
    List<String> users = new ArrayList<>(lower(a.names));
    users.addAll(lower(many(opts, "names")));
    users.addAll(lower(many(opts, "user")));
    List<String> accounts = lower(many(opts, "account"));
    if (users.isEmpty() || accounts.isEmpty()) {
      return Plan.refuse(" You need to specify a user list and account list here.\n", true);
    }
    Plan p = new Plan("adding coordinators");
    p.line(" Adding Coordinator User(s)");
    users.forEach(u -> p.line("  " + u));
    p.line(" To Account(s) and all sub-accounts");
    accounts.forEach(x -> p.line("  " + x));
    for (String u : users) {
      for (String x : accounts) {
        p.changes.add(AcctChange.newBuilder().setAddCoord(AcctCoord.newBuilder().setUser(u).setAccount(x)).build());
      }
    }
    return p;
  }
}

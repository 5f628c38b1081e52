package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The words after sacctmgr's entity: bare names, KEY=VALUE (also += and -=) before or after
 * "where" (conditions) and after "set" (values), format=, and the flags withassoc, withcoord,
 * tree and -s. Keys are matched as Slurm does, case-insensitively and by their leading letters.
 */
final class Args {
  record Opt(String key, String op, String value) {
    List<String> list() {
      return value.isEmpty() ? List.of() : Arrays.stream(value.split(",")).map(String::trim)
          .filter(s -> !s.isEmpty()).toList();
    }
  }

  final List<String> names = new ArrayList<>();
  final List<Opt> where = new ArrayList<>();
  final List<Opt> set = new ArrayList<>();
  final List<String> format = new ArrayList<>();
  boolean withAssoc;
  boolean withCoord;
  boolean tree;
  boolean sawSet;

  static Args parse(List<String> words, boolean assocFlag) {
    Args a = new Args();
    a.withAssoc = assocFlag;
    boolean inSet = false;
    for (String w : words) {
      String lw = w.toLowerCase(Locale.ROOT);
      if (lw.equals("where")) {
        inSet = false;
        continue;
      }
      if (lw.equals("set")) {
        inSet = true;
        a.sawSet = true;
        continue;
      }
      if (lw.equals("-s") || lw.startsWith("withassoc") || lw.equals("--associations")) {
        a.withAssoc = true;
        continue;
      }
      if (lw.startsWith("withcoor")) {
        a.withCoord = true;
        continue;
      }
      if (lw.equals("tree")) {
        a.tree = true;
        continue;
      }
      int eq = w.indexOf('=');
      if (eq <= 0) {
        a.names.addAll(Arrays.asList(w.split(",")));
        continue;
      }
      String op = "=";
      String key = w.substring(0, eq);
      if (key.endsWith("+") || key.endsWith("-")) {
        op = key.substring(key.length() - 1) + "=";
        key = key.substring(0, key.length() - 1);
      }
      key = canon(key);
      String value = w.substring(eq + 1);
      if (key.equals("format")) {
        a.format.addAll(Arrays.asList(value.split(",")));
      } else if (inSet) {
        a.set.add(new Opt(key, op, value));
      } else {
        a.where.add(new Opt(key, op, value));
      }
    }
    return a;
  }

  private static final String[][] KEYS = {
      {"names", "name", "names"},
      {"format", "format"},
      {"account", "accounts", "acct"},
      {"user", "users"},
      {"cluster", "clusters"},
      {"partition", "partitions"},
      {"parent", "parent", "parentname"},
      {"description", "description", "descr"},
      {"organization", "organization", "org"},
      {"defaultaccount", "defaultaccount", "defacct"},
      {"adminlevel", "adminlevel", "admin"},
      {"defaultqos", "defaultqos", "defqos"},
      {"qos", "qos", "qoslevel"},
      {"fairshare", "fairshare", "shares"},
      {"grpjobs", "grpjobs"},
      {"grpsubmitjobs", "grpsubmitjobs", "grpsubmit"},
      {"grptresrunmins", "grptresrunmins"},
      {"grptresmins", "grptresmins"},
      {"grptres", "grptres"},
      {"grpwall", "grpwall"},
      {"maxjobs", "maxjobs"},
      {"maxsubmitjobs", "maxsubmitjobs", "maxsubmit"},
      {"maxtresmins", "maxtresminsperjob", "maxtresmins"},
      {"maxtresperjob", "maxtresperjob", "maxtres"},
      {"maxwall", "maxwalldurationperjob", "maxwall"},
      {"maxjobsperuser", "maxjobsperuser", "maxjobspu"},
      {"maxsubmitjobsperuser", "maxsubmitjobsperuser", "maxsubmitpu"},
      {"maxtresperuser", "maxtresperuser", "maxtrespu"},
      {"priority", "priority"},
      {"flags", "flags"},
      {"preemptmode", "preemptmode"},
      {"preempt", "preempt"},
      {"usagefactor", "usagefactor"},
      {"gracetime", "gracetime"},
      {"id", "id", "ids"},
      {"wckeys", "wckeys", "wckey"},
      {"defaultwckey", "defaultwckey", "defwckey"},
  };

  /** A key's canonical name: an exact alias, else the first alias it begins (3 letters or more). */
  static String canon(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    for (String[] row : KEYS) {
      for (int i = 1; i < row.length; i++) {
        if (row[i].equals(k)) {
          return row[0];
        }
      }
    }
    if (k.length() >= 3) {
      for (String[] row : KEYS) {
        for (int i = 1; i < row.length; i++) {
          if (row[i].startsWith(k)) {
            return row[0];
          }
        }
      }
    }
    return k;
  }

  /** Values of every condition with this canonical key (and bare names when key is "names"). */
  List<String> cond(String key) {
    List<String> out = new ArrayList<>();
    if (key.equals("names")) {
      out.addAll(names.stream().map(s -> s.trim()).filter(s -> !s.isEmpty()).toList());
    }
    for (Opt o : where) {
      if (o.key().equals(key)) {
        out.addAll(o.list());
      }
    }
    return out;
  }
}

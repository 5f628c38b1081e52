package org.corral.cli.sreport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.corral.cli.sreport.ReportTable.Cell;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.ClusterUsage;
import org.corral.protocol.msg.JobSizeUsage;
import org.corral.protocol.msg.UsageReportReply;

/**
 * The rows of each report from slurmdbd's usage (and, for the account tree, its associations),
 * in Slurm's order. Values stay CPU-seconds; the table prints them in the -t format.
 */
final class Reports {
  private Reports() {}

  static Map<String, Cell> row() {
    return new LinkedHashMap<>();
  }

  /** cluster Utilization: one row per cluster with usage in the window. */
  static List<Map<String, Cell>> utilization(UsageReportReply r, long period) {
    List<Map<String, Cell>> out = new ArrayList<>();
    for (ClusterUsage c : r.getClustersList()) {
      long reported = c.getAllocSecs() + c.getDownSecs() + c.getPlannedDownSecs() + c.getIdleSecs()
          + c.getPlannedSecs();
      Map<String, Cell> row = row();
      row.put("cluster", Cell.text(c.getCluster()));
      row.put("count", Cell.text(Integer.toString(c.getCpus())));
      row.put("allocated", Cell.usage(c.getAllocSecs(), reported));
      row.put("down", Cell.usage(c.getDownSecs(), reported));
      row.put("planneddown", Cell.usage(c.getPlannedDownSecs(), reported));
      row.put("idle", Cell.usage(c.getIdleSecs(), reported));
      row.put("planned", Cell.usage(c.getPlannedSecs(), reported));
      row.put("overcommitted", Cell.usage(c.getOverSecs(), reported));
      row.put("reported", Cell.usage(reported, period * c.getCpus()));
      out.add(row);
    }
    return out;
  }

  /** A user association's usage. */
  record Use(String cluster, String account, String user, long secs) {}

  private static long clusterTotal(UsageReportReply r, String cluster) {
    return r.getClustersList().stream().filter(c -> c.getCluster().equals(cluster))
        .mapToLong(c -> c.getAllocSecs() + c.getDownSecs() + c.getPlannedDownSecs() + c.getIdleSecs()
            + c.getPlannedSecs()).findFirst().orElse(0);
  }

  private static Map<String, Cell> userRow(String cluster, String account, String user, long secs, long total,
      UnaryOperator<String> proper) {
    Map<String, Cell> row = row();
    row.put("cluster", Cell.text(cluster));
    row.put("accounts", Cell.text(account));
    row.put("login", Cell.text(user));
    row.put("proper", Cell.text(proper.apply(user)));
    row.put("used", Cell.usage(secs, total));
    row.put("energy", Cell.usage(0, total));
    return row;
  }

  /**
   * cluster AccountUtilizationByUser: the account tree from root, each account with the usage
   * of everything below it, then its users, then its sub-accounts (by name); only what has
   * usage. With tree, accounts are indented by depth.
   */
  static List<Map<String, Cell>> accountsByUser(UsageReportReply r, List<AcctAssoc> assocs, ReportOptions o,
      UnaryOperator<String> proper) {
    List<Map<String, Cell>> out = new ArrayList<>();
    for (ClusterUsage c : r.getClustersList()) {
      String cluster = c.getCluster();
      long total = clusterTotal(r, cluster);
      Map<String, List<String>> children = new HashMap<>();
      for (AcctAssoc a : assocs) {
        if (a.getCluster().equals(cluster) && a.getUser().isEmpty() && !a.getParentAccount().isEmpty()) {
          children.computeIfAbsent(a.getParentAccount(), k -> new ArrayList<>()).add(a.getAccount());
        }
      }
      Map<String, Map<String, Long>> byAccount = new HashMap<>();
      for (AssocUsage u : r.getAssocsList()) {
        if (u.getCluster().equals(cluster) && (o.users.isEmpty() || o.users.contains(u.getUser()))) {
          byAccount.computeIfAbsent(u.getAccount(), k -> new TreeMap<>()).merge(u.getUser(), u.getAllocSecs(), Long::sum);
        }
      }
      walk("root", 0, cluster, total, children, byAccount, o, proper, out);
    }
    return out;
  }

  /** Whether the account or anything below it has usage; its total. */
  private static long subtree(String account, Map<String, List<String>> children,
      Map<String, Map<String, Long>> byAccount, boolean[] any) {
    long sum = 0;
    Map<String, Long> users = byAccount.get(account);
    if (users != null && !users.isEmpty()) {
      any[0] = true;
      sum += users.values().stream().mapToLong(Long::longValue).sum();
    }
    for (String child : children.getOrDefault(account, List.of())) {
      sum += subtree(child, children, byAccount, any);
    }
    return sum;
  }

  private static void walk(String account, int depth, String cluster, long total,
      Map<String, List<String>> children, Map<String, Map<String, Long>> byAccount, ReportOptions o,
      UnaryOperator<String> proper, List<Map<String, Cell>> out) {
    boolean[] any = new boolean[1];
    long sum = subtree(account, children, byAccount, any);
    if (!any[0]) {
      return;
    }
    boolean shown = o.accounts.isEmpty() || o.accounts.contains(account);
    String indent = o.tree ? " ".repeat(depth) : "";
    if (shown) {
      out.add(userRow(cluster, indent + account, "", sum, total, u -> ""));
      for (Map.Entry<String, Long> u : byAccount.getOrDefault(account, Map.of()).entrySet()) {
        String userIndent = o.tree ? " ".repeat(depth + 1) : "";
        out.add(userRow(cluster, userIndent + account, u.getKey(), u.getValue(), total, proper));
      }
    }
    for (String child : new TreeSet<>(children.getOrDefault(account, List.of()))) {
      walk(child, depth + 1, cluster, total, children, byAccount, o, proper, out);
    }
  }

  /** The user associations with usage, most used first (then by user and account). */
  private static List<Use> uses(UsageReportReply r, String cluster, ReportOptions o) {
    List<Use> out = new ArrayList<>();
    for (AssocUsage u : r.getAssocsList()) {
      if (u.getCluster().equals(cluster) && (o.users.isEmpty() || o.users.contains(u.getUser()))
          && (o.accounts.isEmpty() || o.accounts.contains(u.getAccount()))) {
        out.add(new Use(cluster, u.getAccount(), u.getUser(), u.getAllocSecs()));
      }
    }
    out.sort(Comparator.comparingLong(Use::secs).reversed().thenComparing(Use::user).thenComparing(Use::account));
    return out;
  }

  /** cluster UserUtilizationByAccount: each user association, most used first. */
  static List<Map<String, Cell>> usersByAccount(UsageReportReply r, ReportOptions o, UnaryOperator<String> proper) {
    List<Map<String, Cell>> out = new ArrayList<>();
    for (ClusterUsage c : r.getClustersList()) {
      long total = clusterTotal(r, c.getCluster());
      for (Use u : uses(r, c.getCluster(), o)) {
        out.add(userRow(u.cluster(), u.account(), u.user(), u.secs(), total, proper));
      }
    }
    return out;
  }

  /**
   * user TopUsage: the topcount users with the most usage, each with a line per account (most
   * used first), or one line listing their accounts with group.
   */
  static List<Map<String, Cell>> topUsage(UsageReportReply r, ReportOptions o, UnaryOperator<String> proper) {
    List<Map<String, Cell>> out = new ArrayList<>();
    for (ClusterUsage c : r.getClustersList()) {
      long total = clusterTotal(r, c.getCluster());
      Map<String, List<Use>> byUser = new LinkedHashMap<>();
      for (Use u : uses(r, c.getCluster(), o)) {
        byUser.computeIfAbsent(u.user(), k -> new ArrayList<>()).add(u);
      }
      List<Map.Entry<String, List<Use>>> users = new ArrayList<>(byUser.entrySet());
      users.sort(Comparator.comparingLong((Map.Entry<String, List<Use>> e) -> -e.getValue().stream()
          .mapToLong(Use::secs).sum()).thenComparing(Map.Entry::getKey));
      int n = 0;
      for (Map.Entry<String, List<Use>> e : users) {
        if (o.topCount > 0 && n++ >= o.topCount) {
          break;
        }
        if (o.group) {
          long sum = e.getValue().stream().mapToLong(Use::secs).sum();
          String accounts = String.join(", ", e.getValue().stream().map(Use::account).toList());
          out.add(userRow(c.getCluster(), accounts, e.getKey(), sum, total, proper));
        } else {
          for (Use u : e.getValue()) {
            out.add(userRow(u.cluster(), u.account(), u.user(), u.secs(), total, proper));
          }
        }
      }
    }
    return out;
  }

  /**
   * The size groups' lower bounds: 0 and the grouping (default 50, 250, 500, 1000), or with
   * grouping=individual each CPU count jobs ran with.
   */
  static List<Integer> bounds(ReportOptions o, UsageReportReply usage) {
    if (o.individual) {
      return usage.getJobSizesList().stream().map(JobSizeUsage::getCpus).distinct().sorted().toList();
    }
    List<Integer> b = new ArrayList<>(List.of(0));
    b.addAll(o.grouping.isEmpty() ? List.of(50, 250, 500, 1000) : o.grouping);
    return b;
  }

  /** The size groups' column names: "0-49 CPUs" ... ">= 1000 CPUs", or "8 CPUs" when individual. */
  static List<String> binNames(List<Integer> bounds, boolean individual) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < bounds.size(); i++) {
      out.add(individual ? bounds.get(i) + " CPUs" : i + 1 < bounds.size()
          ? bounds.get(i) + "-" + (bounds.get(i + 1) - 1) + " CPUs" : ">= " + bounds.get(i) + " CPUs");
    }
    return out;
  }

  /**
   * job SizesByAccount: a line per account with the CPU time (or number of jobs) of the jobs
   * run under it and its sub-accounts, by size group, each group's share of the line with
   * -t percent, and the line's share of all lines. The lines: root by default; the accounts
   * given (less those below another one given); with AcctAsParent their sub-accounts; with
   * FlatView every account that ran jobs, each on its own. Only lines with jobs print.
   */
  static List<Map<String, Cell>> jobSizes(UsageReportReply r, List<AcctAssoc> assocs, ReportOptions o) {
    List<Map<String, Cell>> out = new ArrayList<>();
    List<Integer> bounds = bounds(o, r);
    for (String cluster : r.getJobSizesList().stream().map(JobSizeUsage::getCluster).distinct().toList()) {
      Map<String, String> parent = new HashMap<>();
      for (AcctAssoc a : assocs) {
        if (a.getCluster().equals(cluster) && a.getUser().isEmpty()) {
          parent.put(a.getAccount(), a.getParentAccount());
        }
      }
      List<JobSizeUsage> sizes = r.getJobSizesList().stream().filter(s -> s.getCluster().equals(cluster)).toList();
      List<String> lines = new ArrayList<>();
      if (o.flatView) {
        sizes.stream().map(JobSizeUsage::getAccount).distinct().sorted().forEach(lines::add);
      } else {
        List<String> given = o.accounts.isEmpty() ? List.of("root") : o.accounts;
        List<String> tops = given.stream().filter(a -> given.stream()
            .noneMatch(b -> !b.equals(a) && isBelow(a, b, parent))).toList();
        if (o.acctAsParent) {
          parent.entrySet().stream().filter(e -> tops.contains(e.getValue())).map(Map.Entry::getKey).sorted()
              .forEach(lines::add);
        } else {
          lines.addAll(tops);
        }
      }
      List<long[]> rows = new ArrayList<>();
      List<String> shown = new ArrayList<>();
      long grand = 0;
      for (String account : lines) {
        long[] bins = new long[bounds.size() + 1]; // the last: the line's total
        for (JobSizeUsage s : sizes) {
          if (o.flatView ? !s.getAccount().equals(account) : !isBelow(s.getAccount(), account, parent)) {
            continue;
          }
          int bin = 0;
          if (o.individual) {
            bin = bounds.indexOf(s.getCpus());
          } else {
            while (bin + 1 < bounds.size() && s.getCpus() >= bounds.get(bin + 1)) {
              bin++;
            }
          }
          long v = o.printJobCount ? s.getJobs() : s.getAllocSecs();
          bins[bin] += v;
          bins[bounds.size()] += v;
        }
        if (bins[bounds.size()] > 0) {
          rows.add(bins);
          shown.add(account);
          grand += bins[bounds.size()];
        }
      }
      for (int k = 0; k < rows.size(); k++) {
        long[] bins = rows.get(k);
        long sum = bins[bounds.size()];
        Map<String, Cell> row = row();
        row.put("cluster", Cell.text(cluster));
        row.put("account", Cell.text(shown.get(k)));
        for (int i = 0; i < bounds.size(); i++) {
          row.put("bin" + i, o.printJobCount ? Cell.text(Long.toString(bins[i])) : Cell.usage(bins[i], sum));
        }
        row.put("percent", Cell.text(TimeFormat.fixed2((double) sum / (grand == 0 ? 1 : grand) * 100) + "%"));
        out.add(row);
      }
    }
    return out;
  }

  /** Whether {@code account} is {@code ancestor} or below it. */
  private static boolean isBelow(String account, String ancestor, Map<String, String> parent) {
    for (String a = account; a != null && !a.isEmpty(); a = parent.get(a)) {
      if (a.equals(ancestor)) {
        return true;
      }
    }
    return "root".equals(ancestor);
  }
}

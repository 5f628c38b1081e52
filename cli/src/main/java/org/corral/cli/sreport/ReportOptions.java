package org.corral.cli.sreport;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.cli.format.ParseTime;

/**
 * A report's conditions as sreport reads them (key=value words and flags, keys matched by
 * their leading letters, case-insensitive), and its window as slurmdb_report_set_start_end_time
 * settles it: start and end rounded to the nearest hour (default: yesterday), at least an hour.
 */
final class ReportOptions {
  long start;
  long end;
  final List<String> format = new ArrayList<>();
  final List<String> accounts = new ArrayList<>();
  final List<String> users = new ArrayList<>();
  final List<String> clusters = new ArrayList<>();
  final List<Integer> grouping = new ArrayList<>();
  boolean allClusters;
  boolean tree;
  boolean group;
  boolean printJobCount;
  boolean flatView;
  boolean acctAsParent;
  boolean individual;
  int topCount = 10;
  /** Messages for stderr; {@link #failed} when one of them makes the exit status 1. */
  final List<String> errors = new ArrayList<>();
  boolean failed;

  static ReportOptions parse(List<String> words, long now, ZoneId zone, boolean allClusters) {
    ReportOptions o = new ReportOptions();
    o.allClusters = allClusters;
    long start = 0;
    long end = 0;
    for (String w : words) {
      int eq = w.indexOf('=');
      String key = eq < 0 ? w : w.substring(0, eq);
      String val = eq < 0 ? "" : w.substring(eq + 1);
      if (eq < 0) {
        if (TimeFormat.matches(key, "all_clusters", 1)) {
          o.allClusters = true;
        } else if (TimeFormat.matches(key, "tree", 4)) {
          o.tree = true;
        } else if (TimeFormat.matches(key, "group", 1)) {
          o.group = true;
        } else if (TimeFormat.matches(key, "printjobcount", 2)) {
          o.printJobCount = true;
        } else if (TimeFormat.matches(key, "flatview", 2)) {
          o.flatView = true;
        } else if (TimeFormat.matches(key, "acctasparent", 2)) {
          o.acctAsParent = true;
        } else {
          o.unknown(w);
        }
        continue;
      }
      if (TimeFormat.matches(key, "start", 1)) {
        start = time(o, val, now, zone);
      } else if (TimeFormat.matches(key, "end", 1)) {
        end = time(o, val, now, zone);
      } else if (TimeFormat.matches(key, "format", 1)) {
        o.format.addAll(list(val));
      } else if (TimeFormat.matches(key, "accounts", 2)) {
        o.accounts.addAll(list(val));
      } else if (TimeFormat.matches(key, "users", 1)) {
        o.users.addAll(list(val));
      } else if (TimeFormat.matches(key, "clusters", 1)) {
        o.clusters.addAll(list(val));
      } else if (TimeFormat.matches(key, "topcount", 2)) {
        try {
          o.topCount = Integer.parseInt(val);
        } catch (NumberFormatException e) {
          o.unknown(w);
        }
      } else if (TimeFormat.matches(key, "grouping", 2)) {
        try {
          if (TimeFormat.matches(val, "individual", 1)) {
            o.individual = true;
          } else {
            for (String g : list(val)) {
              o.grouping.add(Integer.parseInt(g));
            }
          }
        } catch (NumberFormatException e) {
          o.unknown(w);
        }
      } else {
        o.unknown(w);
      }
    }
    o.window(start, end, now, zone);
    return o;
  }

  private void unknown(String w) {
    errors.add(" Unknown condition: " + w + "\nUse keyword set to modify value");
    failed = true;
  }

  private static List<String> list(String v) {
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  /** parse_time; a bad time is reported and taken as not given (sreport goes on). */
  private static long time(ReportOptions o, String text, long now, ZoneId zone) {
    try {
      return ParseTime.parse(text, now, zone);
    } catch (ParseTime.Invalid e) {
      o.errors.add(e.getMessage());
      return 0;
    }
  }

  private void window(long sentStart, long sentEnd, long now, ZoneId zone) {
    LocalDateTime e = sentEnd == 0 ? at(now, zone).withHour(0) : rounded(at(sentEnd, zone));
    end = e.withMinute(0).withSecond(0).atZone(zone).toEpochSecond();
    LocalDateTime s = sentStart == 0 ? at(now, zone).withHour(0).minusDays(1) : rounded(at(sentStart, zone));
    start = s.withMinute(0).withSecond(0).atZone(zone).toEpochSecond();
    if (end - start < 3600) {
      end = start + 3600;
    }
  }

  private static LocalDateTime at(long t, ZoneId zone) {
    return ZonedDateTime.ofInstant(Instant.ofEpochSecond(t), zone).toLocalDateTime();
  }

  /** sreport's rounding: 30 seconds or more is the next minute, 30 minutes or more the next hour. */
  private static LocalDateTime rounded(LocalDateTime t) {
    LocalDateTime r = t.withNano(0);
    if (r.getSecond() >= 30) {
      r = r.plusMinutes(1).withSecond(0);
    }
    if (r.getMinute() >= 30) {
      r = r.plusHours(1).withMinute(0);
    }
    return r;
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}

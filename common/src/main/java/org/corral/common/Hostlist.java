package org.corral.common;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Slurm hostlist expressions: {@code n[1-3,7]}, {@code gpu[001-032]} (zero padding kept),
 * several bracket groups ({@code r[1-2]n[1-2]}), and comma-separated lists of these.
 */
public final class Hostlist {
  private Hostlist() {}

  /** Expands an expression into host names, in order. */
  public static List<String> expand(String expr) {
    List<String> out = new ArrayList<>();
    for (String item : splitTopLevel(expr.trim())) {
      if (!item.isEmpty()) {
        expandItem(item, out);
      }
    }
    return out;
  }

  private static List<String> splitTopLevel(String expr) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < expr.length(); i++) {
      char c = expr.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
        if (depth < 0) {
          throw new IllegalArgumentException("unbalanced ']' in hostlist '" + expr + "'");
        }
      } else if ((c == ',' || Character.isWhitespace(c)) && depth == 0) {
        parts.add(expr.substring(start, i));
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException("unbalanced '[' in hostlist '" + expr + "'");
    }
    parts.add(expr.substring(start));
    return parts;
  }

  private static void expandItem(String item, List<String> out) {
    int open = item.indexOf('[');
    if (open < 0) {
      out.add(item);
      return;
    }
    int close = item.indexOf(']', open);
    String prefix = item.substring(0, open);
    String rest = item.substring(close + 1);
    for (String range : item.substring(open + 1, close).split(",")) {
      int dash = range.indexOf('-');
      String lo = dash < 0 ? range : range.substring(0, dash);
      String hi = dash < 0 ? range : range.substring(dash + 1);
      if (lo.isEmpty() || hi.isEmpty() || !lo.chars().allMatch(Character::isDigit)
          || !hi.chars().allMatch(Character::isDigit)) {
        throw new IllegalArgumentException("invalid range '" + range + "' in hostlist '" + item + "'");
      }
      long a = Long.parseLong(lo);
      long b = Long.parseLong(hi);
      if (b < a) {
        throw new IllegalArgumentException("invalid range '" + range + "' in hostlist '" + item + "'");
      }
      int width = lo.length() > 1 && lo.startsWith("0") ? lo.length() : 0;
      for (long n = a; n <= b; n++) {
        String num = width > 0 ? String.format("%0" + width + "d", n) : Long.toString(n);
        expandItem(prefix + num + rest, out);
      }
    }
  }

  /**
   * Compresses host names into the shortest ranged form, keeping their order: consecutive names
   * with the same prefix and number width join one bracket ({@code n1,n2,n3,n7 -> n[1-3,7]}).
   */
  public static String compress(Collection<String> names) {
    record Host(String prefix, long num, int width, String name) {}
    List<Host> hosts = new ArrayList<>();
    for (String n : names) {
      int i = n.length();
      while (i > 0 && Character.isDigit(n.charAt(i - 1))) {
        i--;
      }
      if (i == n.length() || n.length() - i > 18) {
        hosts.add(new Host(n, -1, 0, n));
      } else {
        String digits = n.substring(i);
        int width = digits.length() > 1 && digits.startsWith("0") ? digits.length() : 0;
        hosts.add(new Host(n.substring(0, i), Long.parseLong(digits), width, n));
      }
    }
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < hosts.size()) {
      Host h = hosts.get(i);
      if (sb.length() > 0) {
        sb.append(',');
      }
      if (h.num() < 0) {
        sb.append(h.name());
        i++;
        continue;
      }
      // Gather following hosts of the same prefix and width into one bracket.
      List<long[]> ranges = new ArrayList<>();
      int j = i;
      while (j < hosts.size() && hosts.get(j).num() >= 0 && hosts.get(j).prefix().equals(h.prefix())
          && hosts.get(j).width() == h.width()) {
        long n = hosts.get(j).num();
        long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
        if (last != null && n == last[1] + 1) {
          last[1] = n;
        } else {
          ranges.add(new long[] {n, n});
        }
        j++;
      }
      if (j - i == 1) {
        sb.append(h.name());
      } else {
        sb.append(h.prefix()).append('[');
        for (int r = 0; r < ranges.size(); r++) {
          if (r > 0) {
            sb.append(',');
          }
          sb.append(pad(ranges.get(r)[0], h.width()));
          if (ranges.get(r)[1] != ranges.get(r)[0]) {
            sb.append('-').append(pad(ranges.get(r)[1], h.width()));
          }
        }
        sb.append(']');
      }
      i = j;
    }
    return sb.toString();
  }

  private static String pad(long n, int width) {
    return width > 0 ? String.format("%0" + width + "d", n) : Long.toString(n);
  }
}

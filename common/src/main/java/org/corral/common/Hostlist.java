package org.corral.common;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Slurm hostlist expressions: {@code n[1-3,7]}, {@code gpu[001-032]} (zero padding kept),
 * several bracket groups ({@code r[1-2]n[1-2]}), and lists of these separated by commas or
 * white space.
 *
 * <p>Matches Slurm 22.05 ({@code scontrol show hostnames / hostlist / hostlistsorted}):
 * expansion keeps order and duplicates; {@link #compress} keeps the given order and duplicates
 * ({@code n3,n1,n2 -> n[3,1-2]}), as Slurm does for node lists it prints; {@link #compressSorted}
 * sorts first, like {@code hostlistsorted}, still without removing duplicates. One deliberate
 * superset: text after the last bracket ({@code n[1-2]-ib}) is accepted, where Slurm rejects it.
 */
public final class Hostlist {
  /** Slurm refuses a single range of more hosts than this ("Too many hosts in range"). */
  public static final int MAX_HOSTS_IN_RANGE = 65536;

  /** Cap on one expansion, so hostile input like {@code n[1-60000][1-60000]} cannot exhaust memory. */
  public static final int MAX_HOSTS = 1 << 20;

  /** Longest run of digits read as a number; longer runs are plain text (no long overflow). */
  private static final int MAX_DIGITS = 18;

  /** Slurm's order for {@code hostlistsorted}: prefix, then digit count, then number. */
  private static final Comparator<HostName> SLURM_ORDER = (a, b) -> {
    // written out: Comparator.comparing's lambdas are made at run time in every command
    int c = a.prefix().compareTo(b.prefix());
    if (c == 0) {
      c = Boolean.compare(a.isNumbered(), b.isNumbered());
    }
    if (c == 0) {
      c = Integer.compare(a.digits().length(), b.digits().length());
    }
    return c != 0 ? c : Long.compare(a.number(), b.number());
  };

  private Hostlist() {}

  /**
   * Expands an expression into host names, in order, duplicates kept.
   *
   * @throws InvalidHostlistException on bad syntax or too many hosts
   */
  public static List<String> expand(String expr) {
    List<String> out = new ArrayList<>();
    for (String item : splitTopLevel(expr)) {
      if (!item.isEmpty()) {
        expandItem(expr, item, 0, "", out);
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
        if (++depth > 1) {
          throw new InvalidHostlistException(expr, "nested '['");
        }
      } else if (c == ']') {
        if (--depth < 0) {
          throw new InvalidHostlistException(expr, "unbalanced ']'");
        }
      } else if ((c == ',' || Character.isWhitespace(c)) && depth == 0) {
        parts.add(expr.substring(start, i));
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw new InvalidHostlistException(expr, "unbalanced '['");
    }
    parts.add(expr.substring(start));
    return parts;
  }

  /** Expands item[from..] after the already-expanded text {@code head}; brackets multiply left to right. */
  private static void expandItem(String expr, String item, int from, String head, List<String> out) {
    int open = item.indexOf('[', from);
    if (open < 0) {
      if (out.size() >= MAX_HOSTS) {
        throw new InvalidHostlistException(expr, "more than " + MAX_HOSTS + " hosts");
      }
      out.add(head + item.substring(from));
      return;
    }
    int close = item.indexOf(']', open);
    String prefix = head + item.substring(from, open);
    String body = item.substring(open + 1, close);
    for (String range : body.split(",", -1)) {
      NumberRange r = NumberRange.parse(expr, range);
      for (long n = r.lo(); n <= r.hi(); n++) {
        expandItem(expr, item, close + 1, prefix + r.format(n), out);
      }
    }
  }

  /** One {@code lo-hi} or {@code n} inside brackets; width > 0 means zero padded to that width. */
  private record NumberRange(long lo, long hi, int width) {
    static NumberRange parse(String expr, String range) {
      int dash = range.indexOf('-');
      String lo = dash < 0 ? range : range.substring(0, dash);
      String hi = dash < 0 ? range : range.substring(dash + 1);
      if (!isNumber(lo) || !isNumber(hi)) {
        throw new InvalidHostlistException(expr, "invalid range '" + range + "'");
      }
      long a = Long.parseLong(lo);
      long b = Long.parseLong(hi);
      if (b < a) {
        throw new InvalidHostlistException(expr, "invalid range '" + range + "'");
      }
      if (b - a >= MAX_HOSTS_IN_RANGE) {
        throw new InvalidHostlistException(expr, "too many hosts in range '" + range + "'");
      }
      return new NumberRange(a, b, isPadded(lo) ? lo.length() : 0);
    }

    String format(long n) {
      return Hostlist.format(n, width);
    }
  }

  private static boolean isNumber(String s) {
    if (s.isEmpty() || s.length() > MAX_DIGITS) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean isPadded(String digits) {
    return digits.length() > 1 && digits.charAt(0) == '0';
  }

  private static String format(long n, int width) {
    String s = Long.toString(n);
    return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
  }

  /**
   * Compresses host names into Slurm's ranged form keeping their order and duplicates:
   * consecutive numbers join a range ({@code n1,n2,n3,n7 -> n[1-3,7]}), and consecutive ranges
   * of the same prefix share one bracket ({@code a1,a2,b1,a3 -> a[1-2],b1,a3}).
   */
  public static String compress(Collection<String> names) {
    List<HostName> hosts = new ArrayList<>(names.size());
    for (String n : names) {
      hosts.add(HostName.of(n));
    }
    return compressParsed(hosts);
  }

  /** Like {@link #compress}, after sorting as {@code scontrol show hostlistsorted} does (duplicates kept). */
  public static String compressSorted(Collection<String> names) {
    List<HostName> hosts = new ArrayList<>(names.size());
    for (String n : names) {
      hosts.add(HostName.of(n));
    }
    hosts.sort(SLURM_ORDER);
    return compressParsed(hosts);
  }

  private static String compressParsed(List<HostName> hosts) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < hosts.size()) {
      HostName h = hosts.get(i);
      if (sb.length() > 0) {
        sb.append(',');
      }
      if (!h.isNumbered()) {
        sb.append(h.name());
        i++;
        continue;
      }
      // Gather the following numbered hosts of the same prefix into one bracket.
      List<Run> runs = new ArrayList<>();
      int j = i;
      while (j < hosts.size() && hosts.get(j).isNumbered() && hosts.get(j).prefix().equals(h.prefix())) {
        HostName next = hosts.get(j);
        Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (last != null && last.accepts(next)) {
          last.hi = next.number();
        } else {
          runs.add(new Run(next));
        }
        j++;
      }
      if (runs.size() == 1 && runs.get(0).lo == runs.get(0).hi) {
        sb.append(h.name());
      } else {
        sb.append(h.prefix()).append('[');
        for (int r = 0; r < runs.size(); r++) {
          if (r > 0) {
            sb.append(',');
          }
          runs.get(r).appendTo(sb);
        }
        sb.append(']');
      }
      i = j;
    }
    return sb.toString();
  }

  /** A host name split into text and trailing number ({@code digits} empty when it has none). */
  private record HostName(String name, String prefix, String digits, long number) {
    static HostName of(String name) {
      int i = name.length();
      while (i > 0 && name.charAt(i - 1) >= '0' && name.charAt(i - 1) <= '9') {
        i--;
      }
      String digits = name.substring(i);
      if (digits.isEmpty() || digits.length() > MAX_DIGITS) {
        return new HostName(name, name, "", -1);
      }
      return new HostName(name, name.substring(0, i), digits, Long.parseLong(digits));
    }

    boolean isNumbered() {
      return number >= 0;
    }
  }

  /**
   * A run of consecutive numbers printed with one width: the width of its first host when that
   * one is zero padded, else natural. A host joins when it is the next number and prints the same
   * way (so {@code n09,n10} join but {@code n08,n9} do not), which keeps expand(compress(x)) == x.
   */
  private static final class Run {
    final long lo;
    long hi;
    final int width;

    Run(HostName first) {
      lo = first.number();
      hi = lo;
      width = isPadded(first.digits()) ? first.digits().length() : 0;
    }

    boolean accepts(HostName h) {
      return h.number() == hi + 1 && format(h.number(), width).equals(h.digits());
    }

    void appendTo(StringBuilder sb) {
      sb.append(format(lo, width));
      if (hi != lo) {
        sb.append('-').append(format(hi, width));
      }
    }
  }
}

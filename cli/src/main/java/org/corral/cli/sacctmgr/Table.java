package org.corral.cli.sacctmgr;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.corral.cli.Cli;

/**
 * Slurm's print_fields: columns of a width (negative: left-aligned), values cut to the width with
 * a '+' in the last place, headers cut without one; -p ends every field with '|', -P all but the
 * last; -n drops the header and its dashes.
 */
final class Table<R> {
  /** A column: Slurm's header, default width, the names format= knows it by, its value. */
  record Column<R>(String header, int width, List<String> names, Function<R, String> value) {
    Column<R> withWidth(int w) {
      return new Column<>(header, w, names, value);
    }
  }

  enum Style { FIXED, PARSABLE, PARSABLE2 }

  /** The rows a query to slurmdbd answers. */
  interface Rows<R> {
    List<R> get() throws IOException;
  }

  /**
   * Prints the rows in the columns Format= names (the defaults without one): exit status 0, or
   * 1 after naming an unknown field (the query is then not sent).
   */
  static <R> int printSelected(Cli cli, List<Column<R>> known, List<String> format, List<String> defaults,
      Rows<R> rows, Style style, boolean header) throws IOException {
    List<Column<R>> cols;
    try {
      cols = select(known, format.isEmpty() ? defaults : format);
    } catch (UnknownField e) {
      cli.err().println("Unknown field '" + e.getMessage() + "'");
      return 1;
    }
    new Table<>(cols).print(cli.out(), rows.get(), style, header);
    return 0;
  }

  private final List<Column<R>> columns;

  Table(List<Column<R>> columns) {
    this.columns = columns;
  }

  /**
   * The columns a format= list names ("user,admin%20,account%-15"), or an error naming the
   * first unknown one.
   */
  static <R> List<Column<R>> select(List<Column<R>> known, List<String> format) throws UnknownField {
    List<Column<R>> out = new ArrayList<>();
    for (String f : format) {
      String name = f;
      Integer width = null;
      int pct = f.indexOf('%');
      if (pct >= 0) {
        name = f.substring(0, pct);
        try {
          width = Integer.parseInt(f.substring(pct + 1));
        } catch (NumberFormatException e) {
          width = null;
        }
      }
      Column<R> c = find(known, name.toLowerCase(Locale.ROOT));
      if (c == null) {
        throw new UnknownField(f);
      }
      out.add(width == null || width == 0 ? c : c.withWidth(width));
    }
    return out;
  }

  private static <R> Column<R> find(List<Column<R>> known, String name) {
    for (Column<R> c : known) {
      if (c.names().contains(name)) {
        return c;
      }
    }
    if (name.length() >= 3) {
      for (Column<R> c : known) {
        for (String n : c.names()) {
          if (n.startsWith(name)) {
            return c;
          }
        }
      }
    }
    return null;
  }

  static final class UnknownField extends Exception {
    private static final long serialVersionUID = 1L;

    UnknownField(String field) {
      super(field, null, false, false);
    }
  }

  void print(PrintStream out, List<R> rows, Style style, boolean header) {
    if (header) {
      StringBuilder h = new StringBuilder();
      StringBuilder d = new StringBuilder();
      for (int i = 0; i < columns.size(); i++) {
        Column<R> c = columns.get(i);
        boolean last = i == columns.size() - 1;
        if (style == Style.FIXED) {
          int w = Math.abs(c.width());
          String name = cut(c.header(), w);
          h.append(c.width() < 0 ? pad(name, w, true) : pad(name, w, false)).append(' ');
          d.append("-".repeat(w)).append(' ');
        } else {
          h.append(c.header()).append(last && style == Style.PARSABLE2 ? "" : "|");
        }
      }
      out.print(h.append('\n'));
      if (style == Style.FIXED) {
        out.print(d.append('\n'));
      }
    }
    for (R r : rows) {
      out.print(line(r, style));
    }
  }

  String line(R r, Style style) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < columns.size(); i++) {
      Column<R> c = columns.get(i);
      String v = c.value().apply(r);
      if (v == null) {
        v = "";
      }
      boolean last = i == columns.size() - 1;
      if (style == Style.FIXED) {
        int w = Math.abs(c.width());
        if (v.length() > w) {
          v = v.substring(0, Math.max(0, w - 1)) + "+";
        }
        b.append(pad(v, w, c.width() < 0)).append(' ');
      } else {
        b.append(v).append(last && style == Style.PARSABLE2 ? "" : "|");
      }
    }
    return b.append('\n').toString();
  }

  private static String cut(String s, int w) {
    return s.length() > w ? s.substring(0, w) : s;
  }

  static String pad(String s, int w, boolean left) {
    if (s.length() >= w) {
      return s;
    }
    String sp = " ".repeat(w - s.length());
    return left ? s + sp : sp + s;
  }
}

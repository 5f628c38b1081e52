package org.corral.cli.sreport;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's print_fields as sreport drives them: a header (names cut to the width) and a line of
 * dashes, then rows; text is cut with '+', usage values silently; -p/-P join the values with '|'
 * (-p ends each line with it too); -n prints neither header nor dashes. Usage columns are as
 * wide as their largest value needs (8 at least, 9 more for "N(P%)" values).
 */
final class ReportTable {
  /** One column: a name, a width (negative: left-aligned) and whether it holds usage. */
  record Field(String key, String name, int width, boolean usage) {
    Field withWidth(int w) {
      return new Field(key, name, w, usage);
    }
  }

  /** A value: text, or CPU-seconds printed against a total. */
  record Cell(String text, long secs, long total) {
    static Cell text(String s) {
      return new Cell(s, -1, 0);
    }

    static Cell usage(long secs, long total) {
      return new Cell(null, secs, total);
    }
  }

  enum Mode { FIXED, PARSABLE, PARSABLE2 }

  private final List<Field> fields;
  private final List<java.util.Map<String, Cell>> rows = new ArrayList<>();
  private final Mode mode;
  private final boolean header;
  private final TimeFormat time;

  ReportTable(List<Field> fields, Mode mode, boolean header, TimeFormat time) {
    this.fields = fields;
    this.mode = mode;
    this.header = header;
    this.time = time;
  }

  void add(java.util.Map<String, Cell> row) {
    rows.add(row);
  }

  String render() {
    List<Field> cols = sized();
    StringBuilder sb = new StringBuilder();
    if (header) {
      for (int i = 0; i < cols.size(); i++) {
        Field f = cols.get(i);
        if (mode == Mode.FIXED) {
          sb.append(org.corral.cli.format.Cell.fit(cut(f.name(), Math.abs(f.width()), false), Math.abs(f.width()), f.width() > 0)).append(' ');
        } else {
          sb.append(f.name()).append(end(i, cols.size()));
        }
      }
      sb.append('\n');
      if (mode == Mode.FIXED) {
        for (Field f : cols) {
          sb.append("-".repeat(Math.abs(f.width()))).append(' ');
        }
        sb.append('\n');
      }
    }
    for (java.util.Map<String, Cell> row : rows) {
      for (int i = 0; i < cols.size(); i++) {
        Field f = cols.get(i);
        Cell c = row.get(f.key());
        String v = c == null ? "" : c.text() != null ? c.text() : time.format(c.secs(), c.total());
        if (mode == Mode.FIXED) {
          sb.append(org.corral.cli.format.Cell.fit(cut(v, Math.abs(f.width()), c != null && c.text() != null), Math.abs(f.width()),
              f.width() > 0)).append(' ');
        } else {
          sb.append(v).append(end(i, cols.size()));
        }
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private String end(int i, int n) {
    return i < n - 1 || mode == Mode.PARSABLE ? "|" : "";
  }

  /** Usage columns widened to their largest value, as sreport_set_usage_col_width does. */
  private List<Field> sized() {
    long max = 0;
    for (java.util.Map<String, Cell> row : rows) {
      for (Field f : fields) {
        Cell c = row.get(f.key());
        if (f.usage() && c != null && c.text() == null) {
          max = Math.max(max, c.secs());
        }
      }
    }
    long number = switch (time) {
      case MINUTES, MINPER -> max / 60;
      case HOURS, HOURPER -> max / 3600;
      default -> max;
    };
    int width = 8;
    for (long order = 100_000_000L; number >= order && width < 13; order *= 10) {
      width++;
    }
    if (time.combined()) {
      width += 9;
    }
    List<Field> out = new ArrayList<>();
    for (Field f : fields) {
      out.add(f.usage() ? f.withWidth(width) : f);
    }
    return out;
  }

  private static String cut(String v, int w, boolean plus) {
    if (v.length() <= w) {
      return v;
    }
    return plus && w > 0 ? v.substring(0, w - 1) + "+" : v.substring(0, w);
  }
}

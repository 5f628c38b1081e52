package org.corral.cli.sacct;

import java.util.List;

/**
 * Slurm's print_fields: fixed-width columns each followed by a space (text cut with '+', numbers
 * and durations never cut, dates cut silently), or with -p/-P the values joined by the delimiter
 * (-p ends each line with it too).
 */
record Printer(List<SacctField> fields, String delimiter, boolean trailing) {

  boolean parsable() {
    return delimiter != null;
  }

  String header() {
    StringBuilder sb = new StringBuilder();
    if (parsable()) {
      for (int i = 0; i < fields.size(); i++) {
        sb.append(fields.get(i).name());
        if (i < fields.size() - 1 || trailing) {
          sb.append(delimiter);
        }
      }
      return sb.append('\n').toString();
    }
    for (SacctField f : fields) {
      int w = Math.abs(f.width());
      String name = f.name().length() > w ? f.name().substring(0, w) : f.name();
      sb.append(pad(name, f.width())).append(' ');
    }
    sb.append('\n');
    for (SacctField f : fields) {
      sb.append("-".repeat(Math.abs(f.width()))).append(' ');
    }
    return sb.append('\n').toString();
  }

  String row(Row r) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      SacctField f = fields.get(i);
      String v = f.value().apply(r);
      if (parsable()) {
        sb.append(v == null ? "" : v);
        if (i < fields.size() - 1 || trailing) {
          sb.append(delimiter);
        }
        continue;
      }
      int w = Math.abs(f.width());
      String cell = switch (f.kind()) {
        case TEXT -> v == null ? " " : v.length() > w ? v.substring(0, Math.max(0, w - 1)) + "+" : v;
        case NUMBER -> v == null ? " " : v;
        case DATE -> v.length() > w ? v.substring(0, w) : v;
      };
      sb.append(pad(cell, f.width())).append(' ');
    }
    return sb.append('\n').toString();
  }

  /** Right-justified for a positive width, left for a negative one, never cut. */
  private static String pad(String v, int width) {
    int w = Math.abs(width);
    if (v.length() >= w) {
      return v;
    }
    String spaces = " ".repeat(w - v.length());
    return width < 0 ? v + spaces : spaces + v;
  }
}

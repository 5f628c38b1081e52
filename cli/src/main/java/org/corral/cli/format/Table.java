package org.corral.cli.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A format bound to a set of columns, ready to print records: what squeue and sinfo share.
 * Unknown letters print as {@code %X} followed by their text, as Slurm does, after reporting
 * each one through the given error sink.
 */
public final class Table<T> {
  private record Bound<T>(Column<T> column, PercentFormat.Field field, String literal) {}

  private final List<Bound<T>> parts;

  private Table(List<Bound<T>> parts) {
    this.parts = parts;
  }

  /** A table for a {@code %} format; {@code badLetter} hears each unknown letter once. */
  public static <T> Table<T> ofPercent(String format, List<Column<T>> columns,
      Consumer<Character> badLetter) {
    Map<Character, Column<T>> byLetter = new LinkedHashMap<>();
    for (Column<T> c : columns) {
      if (c.letter() != 0) {
        byLetter.putIfAbsent(c.letter(), c);
      }
    }
    List<Bound<T>> parts = new ArrayList<>();
    for (PercentFormat.Item item : PercentFormat.parse(format)) {
      // instanceof, not a pattern switch: its bootstrap spins a class on every command's start
      if (item instanceof PercentFormat.Literal l) {
        parts.add(new Bound<>(null, null, l.text()));
      } else if (item instanceof PercentFormat.Field f) {
        Column<T> c = byLetter.get(f.letter());
        if (c == null) {
          badLetter.accept(f.letter());
          parts.add(new Bound<>(null, null, "%" + f.letter() + f.suffix()));
        } else {
          parts.add(new Bound<>(c, f, null));
        }
      }
    }
    return new Table<>(parts);
  }

  /**
   * A table for a {@code -O} format: comma-separated long names (any case), each optionally
   * followed by {@code :[.][width][suffix]} as Slurm's _parse_long_token reads it (strtol: no
   * digits is width 0, what follows them is printed after the field); fields have no separator
   * and default to {@code defaultWidth}. An unknown name is reported to {@code badName} and
   * prints nothing, as in Slurm.
   */
  public static <T> Table<T> ofLong(String format, List<Column<T>> columns, int defaultWidth,
      Consumer<String> badName) {
    Map<String, Column<T>> byName = new LinkedHashMap<>();
    for (Column<T> c : columns) {
      if (c.longName() != null) {
        byName.putIfAbsent(c.longName().toLowerCase(Locale.ROOT), c);
      }
    }
    List<Bound<T>> parts = new ArrayList<>();
    for (String spec : format.split(",")) {
      if (spec.isEmpty()) {
        continue;
      }
      int colon = spec.indexOf(':');
      String name = colon < 0 ? spec : spec.substring(0, colon);
      int width = defaultWidth;
      boolean right = false;
      String suffix = "";
      if (colon >= 0) {
        int i = colon + 1;
        if (i < spec.length() && spec.charAt(i) == '.') {
          right = true;
          i++;
        }
        int digits = i;
        while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
          i++;
        }
        width = i == digits ? 0 : PercentFormat.parseWidth(spec.substring(digits, i));
        suffix = spec.substring(i);
      }
      Column<T> c = byName.get(name.toLowerCase(Locale.ROOT));
      if (c == null) {
        badName.accept(name);
        continue;
      }
      parts.add(new Bound<>(c, new PercentFormat.Field(c.letter(), width, right, suffix), null));
    }
    return new Table<>(parts);
  }

  /** Whether any field of this table is the given column (by letter). */
  public boolean hasLetter(char letter) {
    return parts.stream().anyMatch(p -> p.column() != null && p.column().letter() == letter);
  }

  public String header() {
    return render(c -> c.header(), true);
  }

  public String row(T record) {
    return render(c -> c.value().apply(record), false);
  }

  // Headers are always cut to the width; values only where the column says so.
  private String render(java.util.function.Function<Column<T>, String> text, boolean header) {
    StringBuilder sb = new StringBuilder();
    for (Bound<T> p : parts) {
      if (p.column() == null) {
        sb.append(p.literal());
      } else {
        String v = text.apply(p.column());
        int width = p.field().width();
        if (!header && !p.column().cut() && v != null && v.length() > width) {
          width = 0;
        }
        sb.append(Cell.fit(v, width, p.field().right()))
            .append(p.field().suffix());
      }
    }
    return sb.toString();
  }
}

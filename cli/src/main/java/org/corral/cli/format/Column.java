package org.corral.cli.format;

import java.util.function.Function;

/**
 * One printable field of a record type: its {@code %} letter (0 when it has none), its long
 * {@code -O} name (null when it has none), the header, how to get its text from a record, and
 * whether a value wider than the column is cut (Slurm never cuts times, for one).
 */
public record Column<T>(char letter, String longName, String header, Function<T, String> value,
    boolean cut) {

  public Column(char letter, String longName, String header, Function<T, String> value) {
    this(letter, longName, header, value, true);
  }

  /** The same column, printed whole even where wider than its width. */
  public Column<T> uncut() {
    return new Column<>(letter, longName, header, value, false);
  }
}

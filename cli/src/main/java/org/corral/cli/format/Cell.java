package org.corral.cli.format;

/** Fits a value into a column as Slurm's printers do: pad to the width and cut what is longer. */
public final class Cell {
  private Cell() {}

  /** {@code width == 0} prints the value whole; otherwise it is padded or cut to the width. */
  public static String fit(String value, int width, boolean right) {
    String v = value == null ? "(null)" : value;
    if (width <= 0) {
      return v;
    }
    if (v.length() >= width) {
      return v.substring(0, width);
    }
    String pad = " ".repeat(width - v.length());
    return right ? pad + v : v + pad;
  }
}

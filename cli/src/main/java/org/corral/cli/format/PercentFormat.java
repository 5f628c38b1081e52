package org.corral.cli.format;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's {@code %[.][size]X} output formats (squeue -o, sinfo -o). Parsed the way Slurm does:
 * the text is split at every {@code %} (runs of {@code %} count as one), text before the first
 * {@code %} is a literal prefix, and each piece is an optional {@code .} (right-justify), an
 * optional width, the field letter, then literal text printed after the field.
 */
public final class PercentFormat {
  private PercentFormat() {}

  /** One piece of a parsed format. */
  public sealed interface Item permits Literal, Field {}

  /** Text printed as is. */
  public record Literal(String text) implements Item {}

  /** A field: its letter, width (0 = as long as the value), justification and trailing text. */
  public record Field(char letter, int width, boolean right, String suffix) implements Item {}

  public static List<Item> parse(String format) {
    List<Item> items = new ArrayList<>();
    String[] pieces = format.split("%+", -1);
    if (!pieces[0].isEmpty()) {
      items.add(new Literal(pieces[0]));
    }
    for (int p = 1; p < pieces.length; p++) {
      String piece = pieces[p];
      if (piece.isEmpty()) {
        continue;
      }
      int i = 0;
      boolean right = false;
      if (piece.charAt(0) == '.') {
        right = true;
        i++;
      }
      int start = i;
      while (i < piece.length() && Character.isDigit(piece.charAt(i))) {
        i++;
      }
      int width = i > start ? parseWidth(piece.substring(start, i)) : 0;
      if (i >= piece.length()) {
        continue;
      }
      items.add(new Field(piece.charAt(i), width, right, piece.substring(i + 1)));
    }
    return items;
  }

  /** A width's digits; one too large for an int is as wide as can be. */
  static int parseWidth(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }
}

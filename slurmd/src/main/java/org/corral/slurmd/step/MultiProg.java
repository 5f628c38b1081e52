package org.corral.slurmd.step;

import java.util.ArrayList;
import java.util.List;

/**
 * srun's --multi-prog configuration (srun(1) "MULTIPLE PROGRAM CONFIGURATION"): one line per
 * set of ranks, "RANKS PROGRAM [ARGS...]". Ranks are comma-separated ids and ranges ("0,2-3") or
 * "*" for every task no earlier line names. As Slurm 22.05 reads it (checked on the reference):
 * words split on blanks; '#' in column one starts a comment; a backslash makes the next
 * character literal; single quotes keep their text literal and are removed (double quotes are
 * ordinary characters); outside those, %t becomes the task id, %o the task's offset among the
 * line's ranks (for "*", the task id), and any other %X is dropped.
 */
final class MultiProg {
  /** Part of a word: literal text, or text in which % sequences are substituted. */
  private record Piece(String text, boolean literal) {}

  private record Line(List<int[]> ranges, List<List<Piece>> words) {
    boolean all() {
      return ranges == null;
    }

    /** The task's offset among this line's ranks, or -1 when the line does not name it. */
    int offset(int task) {
      if (all()) {
        return task;
      }
      int before = 0;
      for (int[] r : ranges) {
        if (task >= r[0] && task <= r[1]) {
          return before + task - r[0];
        }
        before += r[1] - r[0] + 1;
      }
      return -1;
    }
  }

  private final List<Line> lines;

  private MultiProg(List<Line> lines) {
    this.lines = lines;
  }

  /** Parses the configuration's text; throws IllegalArgumentException saying what is wrong. */
  static MultiProg parse(String text) {
    List<Line> lines = new ArrayList<>();
    int number = 0;
    for (String raw : text.split("\n", -1)) {
      number++;
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      List<List<Piece>> words = words(line, number);
      if (words.size() < 2) {
        throw new IllegalArgumentException("multi-prog line " + number + " names no program: " + line.strip());
      }
      String ranks = plain(words.get(0));
      lines.add(new Line(ranks.equals("*") ? null : ranges(ranks, number), words.subList(1, words.size())));
    }
    return new MultiProg(List.copyOf(lines));
  }

  /** The task's command and arguments: from the first line that names it, else from a "*" line. */
  List<String> argv(int task) {
    Line chosen = null;
    for (Line line : lines) {
      if (!line.all() && line.offset(task) >= 0) {
        chosen = line;
        break;
      }
    }
    if (chosen == null) {
      chosen = lines.stream().filter(Line::all).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("No executable program specified for this task"));
    }
    int offset = chosen.offset(task);
    List<String> argv = new ArrayList<>(chosen.words().size());
    for (List<Piece> word : chosen.words()) {
      StringBuilder out = new StringBuilder();
      for (Piece piece : word) {
        out.append(piece.literal() ? piece.text() : substitute(piece.text(), task, offset));
      }
      argv.add(out.toString());
    }
    return argv;
  }

  private static String substitute(String text, int task, int offset) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (++i < text.length()) {
        switch (text.charAt(i)) {
          case 't' -> out.append(task);
          case 'o' -> out.append(offset);
          default -> { } // Slurm drops an unknown %X, the % included
        }
      }
    }
    return out.toString();
  }

  private static List<List<Piece>> words(String line, int number) {
    List<List<Piece>> words = new ArrayList<>();
    List<Piece> word = null;
    StringBuilder text = new StringBuilder();
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == ' ' || c == '\t') {
        if (word != null) {
          flush(word, text, false);
          words.add(word);
          word = null;
        }
        i++;
        continue;
      }
      if (word == null) {
        word = new ArrayList<>();
      }
      if (c == '\\') {
        flush(word, text, false);
        if (i + 1 < line.length()) {
          word.add(new Piece(String.valueOf(line.charAt(i + 1)), true));
        }
        i += 2;
      } else if (c == '\'') {
        flush(word, text, false);
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("multi-prog line " + number + ": unmatched single quote");
        }
        word.add(new Piece(line.substring(i + 1, end), true));
        i = end + 1;
      } else {
        text.append(c);
        i++;
      }
    }
    if (word != null) {
      flush(word, text, false);
      words.add(word);
    }
    return words;
  }

  private static void flush(List<Piece> word, StringBuilder text, boolean literal) {
    if (!text.isEmpty()) {
      word.add(new Piece(text.toString(), literal));
      text.setLength(0);
    }
  }

  private static String plain(List<Piece> word) {
    StringBuilder out = new StringBuilder();
    word.forEach(p -> out.append(p.text()));
    return out.toString();
  }

  private static List<int[]> ranges(String ranks, int number) {
    List<int[]> ranges = new ArrayList<>();
    for (String part : ranks.split(",", -1)) {
      try {
        int dash = part.indexOf('-');
        int low = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
        int high = dash < 0 ? low : Integer.parseInt(part.substring(dash + 1));
        if (low < 0 || high < low) {
          throw new NumberFormatException();
        }
        ranges.add(new int[] {low, high});
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("multi-prog line " + number + ": invalid task ranks '" + ranks + "'");
      }
    }
    return ranges;
  }
}

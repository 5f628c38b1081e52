package org.corral.cli.scontrol;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.corral.cli.Cli;

/**
 * scontrol without a command: commands read from stdin, one a line, as Slurm's scontrol reads
 * them when stdin is not a terminal: each line is echoed after the prompt ("scontrol: show
 * job"), the end of input gets a prompt and a newline, `exit` or `quit` ends it, and the mode
 * keywords (all, details, oneliner, quiet, verbose) change how later commands print. The exit
 * status is 1 when any command failed.
 */
final class InteractiveScontrol {
  private static final String PROMPT = "scontrol: ";
  private static final int MAX_LINE_CHARS = 1 << 20;

  private final BiFunction<List<String>, Cli, Integer> command;
  private final Predicate<String> mode;

  InteractiveScontrol(BiFunction<List<String>, Cli, Integer> command, Predicate<String> mode) {
    this.command = command;
    this.mode = mode;
  }

  int run(InputStream in, Cli cli) {
    int rc = 0;
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      while (true) {
        cli.out().print(PROMPT);
        String line = lines.readLine();
        if (line == null) {
          cli.out().println();
          return rc;
        }
        if (line.length() > MAX_LINE_CHARS) {
          line = line.substring(0, MAX_LINE_CHARS);
        }
        cli.out().println(line);
        List<String> words = words(line);
        if (words.isEmpty()) {
          continue;
        }
        String first = words.get(0).toLowerCase(Locale.ROOT);
        if (first.equals("exit") || first.equals("quit")) {
          return rc;
        }
        if (words.size() == 1 && mode.test(first)) {
          continue;
        }
        if (command.apply(words, cli) != 0) {
          rc = 1;
        }
        cli.out().flush();
      }
    } catch (IOException e) {
      cli.err().println("scontrol: error: reading commands: " + e.getMessage());
      return 1;
    }
  }

  /** The line's words, split at blanks; quotes (single or double) keep blanks in a word and are removed. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}
